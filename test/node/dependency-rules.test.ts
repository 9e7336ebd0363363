import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** The real rules, run by the real CLI: what `npm run lint:deps` runs. */
const ROOT = resolve(import.meta.dirname, "../..");
const CONFIG = join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = join(ROOT, "node_modules", ".bin", "depcruise");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** The violations dependency-cruiser reports (its JSON output, whose exit status is always 0). */
function violations(cwd: string): Violation[] {
  const run = spawnSync(DEPCRUISE, ["src", "--config", CONFIG, "--output-type", "json"], {
    cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The exit status of the plain run `npm run lint:deps` makes. */
function lintStatus(cwd: string): number | null {
  return spawnSync(DEPCRUISE, ["src", "--config", CONFIG], { cwd, encoding: "utf8" }).status;
}

/** A throwaway tree shaped like src/, so no wrong-way file is ever written into the real one. */
const fixtures = mkdtempSync(join(tmpdir(), "dependency-rules-"));
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(fixtures, path)), { recursive: true });
  writeFileSync(join(fixtures, path), text);
}

describe("the import rules (.dependency-cruiser.cjs)", () => {
  // This is the check of the real src that `npm test` makes: it does not run `npm run lint:deps`
  // beside (scripts/test.mjs). Any violation fails it, warnings too, not only what fails the command.
  it("pass on the real src", () => {
    expect(violations(ROOT)).toEqual([]);
  });

  it("report a lib file importing a feature, a feature importing the dashboard, tracking importing campaigns, and a cycle", () => {
    write(
      "tsconfig.json",
      JSON.stringify({ compilerOptions: { module: "ES2022", moduleResolution: "Bundler" } }),
    );
    write("src/features/keys/keys.repo.ts", "export const findKey = 1;\n");
    write(
      "src/lib/helper.ts",
      'import { findKey } from "../features/keys/keys.repo";\nexport const x = findKey;\n',
    );
    write("src/dashboard/layout.ts", "export const Layout = 1;\n");
    write(
      "src/features/portal/page.ts",
      'import { Layout } from "../../dashboard/layout";\nexport const p = Layout;\n',
    );
    write("src/ui/shell.ts", 'import { Layout } from "../dashboard/layout";\nexport const s = Layout;\n');
    write("src/lib/a.ts", 'import { b } from "./b";\nexport const a = () => b;\n');
    write("src/lib/b.ts", 'import type { a } from "./a";\nexport const b = 1;\nexport type A = typeof a;\n');
    write("src/features/campaigns/progress.ts", "export const counted = 1;\n");
    write(
      "src/features/tracking/tracking.repo.ts",
      'import { counted } from "../campaigns/progress";\nexport const t = counted;\n',
    );
    write("src/features/portal/fine.ts", 'import { x } from "../../lib/helper";\nexport const f = x;\n');

    const found = violations(fixtures)
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
      .sort();
    expect(found).toEqual([
      "below-features-imports-up: src/lib/helper.ts -> src/features/keys/keys.repo.ts",
      "below-features-imports-up: src/ui/shell.ts -> src/dashboard/layout.ts",
      "delivery-imports-campaigns: src/features/tracking/tracking.repo.ts -> src/features/campaigns/progress.ts",
      "feature-imports-dashboard: src/features/portal/page.ts -> src/dashboard/layout.ts",
      "no-circular: src/lib/a.ts -> src/lib/b.ts",
    ]);
    expect(lintStatus(fixtures)).not.toBe(0);
  });
});
