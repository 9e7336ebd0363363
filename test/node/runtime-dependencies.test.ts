import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The relay runs on a host of its own from `npm ci --omit=dev` then `npm run relay`: whatever it
 * loads at run time, and the runner of that script, must be a dependency, not a devDependency.
 */
const ROOT = new URL("../..", import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.ts$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The packages a file loads at run time: value imports and dynamic imports, not `import type`. */
function packagesImportedBy(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+"([^"]+)"/gms),
    ...text.matchAll(/\bimport\("([^"]+)"\)/g),
  ].map((match) => match[1] as string);
  return specifiers
    .filter((s) => !s.startsWith(".") && !s.startsWith("node:"))
    .map((s) =>
      s
        .split("/")
        .slice(0, s.startsWith("@") ? 2 : 1)
        .join("/"),
    );
}

describe("the SMTP relay's runtime dependencies", () => {
  it("lists every package smtp-relay/src loads, and the runner of `npm run relay`, in dependencies", () => {
    const imported = new Set(sourceFiles(join(ROOT, "smtp-relay", "src")).flatMap(packagesImportedBy));
    expect(imported).toContain("smtp-server");
    const runner = pkg.scripts.relay?.split(" ")[0] ?? "";
    const needed = [...imported, runner].sort();
    expect(needed.filter((name) => !pkg.dependencies[name])).toEqual([]);
  });
});
