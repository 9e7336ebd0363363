import { execFile } from "node:child_process";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

const ROOT = resolve(import.meta.dirname, "../..");
const REDOCLY = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");

type LintReport = {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
};

/**
 * Lints the document as served with the repository's own redocly.yaml and ignore file, laid out
 * beside it as they are at the root (the ignore file names `openapi.json`). The origin is a real
 * deployment's: redocly's recommended set rightly flags a `localhost` server.
 */
async function lintServedDocument(): Promise<LintReport> {
  const res = await createApp().request("https://support.acme.test/v1/openapi.json");
  expect(res.status).toBe(200);
  const dir = await mkdtemp(join(tmpdir(), "openapi-lint-"));
  try {
    await writeFile(join(dir, "openapi.json"), await res.text());
    await copyFile(join(ROOT, "redocly.yaml"), join(dir, "redocly.yaml"));
    await copyFile(join(ROOT, ".redocly.lint-ignore.yaml"), join(dir, ".redocly.lint-ignore.yaml"));
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, "lint", "openapi.json", "--format=json", "--max-problems=1000"],
      {
        cwd: dir,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    return JSON.parse(stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the API description under redocly's recommended rules", () => {
  it("has no errors and no warnings", async () => {
    const report = await lintServedDocument();
    const problems = report.problems.map(
      (problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    // The three findings .redocly.lint-ignore.yaml names, and no other.
    expect(report.totals.ignored).toBe(3);
  });
});
