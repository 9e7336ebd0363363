import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";

/**
 * The README and the OpenAPI document are the whole contract a user of a fresh clone reads: they
 * may not send readers to documents outside the repository, and the files they name must exist.
 */
const ROOT = resolve(new URL("../..", import.meta.url).pathname);
const README = readFileSync(join(ROOT, "README.md"), "utf8");

/** Wording that points at a document a clone does not have. */
const OUTSIDE = [/\.\.\//, /\bshared\//, /\b(service-spec|product|architecture)\.md\b/, /\bthe spec\b/i];
const outsideReferences = (text: string) =>
  text
    .split("\n")
    .filter((line) => OUTSIDE.some((pattern) => pattern.test(line)))
    .map((line) => line.trim());

/** Repository paths the README names: code spans, relative links, and the layout block's first column. */
function namedPaths(): string[] {
  const topLevel = new Set(readdirSync(ROOT));
  const spans = [...README.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
  const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  const layout = /## How a request flows[\s\S]*?```\n([\s\S]*?)```/.exec(README)?.[1] ?? "";
  const tree = layout.split("\n").map((line) => line.split(/\s{2,}/)[0] ?? "");
  return [...spans, ...links, ...tree].filter(
    (p) =>
      /^\.{0,2}\/?[\w.-]+(\/[\w.-]+)*\/?$/.test(p) &&
      (p.startsWith("../") || topLevel.has(p.split("/")[0] as string)),
  );
}

const ignoredByGit = (path: string) => {
  try {
    execFileSync("git", ["check-ignore", "-q", path], { cwd: ROOT });
    return true;
  } catch {
    return false;
  }
};

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

describe("the README and the OpenAPI document stand on their own", () => {
  it("the README points at no document outside the repository", () => {
    expect(outsideReferences(README)).toEqual([]);
  });

  it("every repository path the README names exists (or is generated and ignored by git)", () => {
    const paths = namedPaths();
    expect(paths).toContain("examples/verify-webhook.mjs");
    const missing = paths.filter(
      (p) => !resolve(ROOT, p).startsWith(ROOT) || !(existsSync(join(ROOT, p)) || ignoredByGit(p)),
    );
    expect(missing).toEqual([]);
  });

  it.each(["/v1/openapi.json", "/_ops/openapi.json"])(
    "no description in %s points at a document outside the repository",
    async (path) => {
      const res = await createApp().request(`http://localhost${path}`);
      const texts = strings(await res.json());
      expect(texts.length).toBeGreaterThan(100);
      expect(texts.flatMap(outsideReferences)).toEqual([]);
    },
  );
});
