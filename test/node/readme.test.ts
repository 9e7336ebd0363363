import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app";
import { allDocs, type Doc, fencedBlocks, linkTargets, ROOT, readDoc } from "./markdown-docs";

/**
 * The README, the guides under docs/ and the OpenAPI document are the whole contract a user of a
 * fresh clone reads: they may not send readers to documents outside the repository, and the files
 * they name must exist. The README stays a short door into the guides.
 */
const README = readDoc("README.md");
const MAX_README_LINES = 250;

/** Wording that points at a document a clone does not have, wherever it stands. */
const ALWAYS_OUTSIDE = [/\bshared\//, /\b(service-spec|product)\.md\b/, /\bthe spec\b/i];

const insideRoot = (path: string) => !relative(ROOT, path).startsWith("..");

/**
 * A `../` path leaves the repository, or names nothing in it, seen from the document's folder; an
 * `architecture.md` that is not this repository's docs/architecture.md is the design document.
 */
function pointsOutside(line: string, folder: string): boolean {
  const upward = [...line.matchAll(/(?:\.\.\/)+[\w.-]*/g)].some((m) => {
    const target = resolve(ROOT, folder, m[0]);
    return !insideRoot(target) || !existsSync(target);
  });
  const design = [...line.matchAll(/[\w./-]*\barchitecture\.md\b/g)].some(
    (m) => !existsSync(resolve(ROOT, folder, m[0])) && !existsSync(resolve(ROOT, m[0])),
  );
  return upward || design;
}

const outsideReferences = (text: string, folder = ".") =>
  text
    .split("\n")
    .filter((line) => ALWAYS_OUTSIDE.some((pattern) => pattern.test(line)) || pointsOutside(line, folder))
    .map((line) => line.trim());

const PATH = /^\.{0,2}\/?[\w.-]+(\/[\w.-]+)*\/?$/;

/**
 * Repository paths a document names, from the root: code spans, relative links (from the
 * document's folder), and the first column of its ```text blocks (the code layout).
 */
function namedPaths(doc: Doc): string[] {
  const topLevel = new Set(readdirSync(ROOT));
  const spans = [...doc.text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
  const links = linkTargets(doc.text)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("#"))
    .map((target) => relative(ROOT, resolve(ROOT, dirname(doc.path), target.split("#")[0] as string)));
  const layout = fencedBlocks(doc.text, "text").flatMap((block) =>
    block.split("\n").map((line) => line.split(/\s{2,}/)[0] ?? ""),
  );
  return [...spans, ...links, ...layout].filter(
    (p) => PATH.test(p) && (p.startsWith("../") || topLevel.has(p.split("/")[0] as string)),
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

describe("the README, the guides and the OpenAPI document stand on their own", () => {
  it(`the README opens with the two commands and stays within ${MAX_README_LINES} lines`, () => {
    const opening = /^```sh\n([\s\S]*?)```/m.exec(README.text)?.[1] ?? "";
    expect(opening).toMatch(/^npm install && npm start\s+#/m);
    expect(opening).toMatch(/^npm test\s+#/m);
    expect(README.text.indexOf(opening)).toBeLessThan(300);
    expect(README.text.trimEnd().split("\n").length).toBeLessThanOrEqual(MAX_README_LINES);
  });

  it("neither the README nor a guide points at a document outside the repository", () => {
    const docs = allDocs();
    expect(docs.map((doc) => doc.path)).toContain("docs/architecture.md");
    const outside = docs.flatMap((doc) =>
      outsideReferences(doc.text, dirname(doc.path)).map((line) => `${doc.path}: ${line}`),
    );
    expect(outside).toEqual([]);
  });

  it("the outside-reference check catches the wordings it is for", () => {
    expect(outsideReferences("see ../shared/spec/service-spec.md", "docs")).toHaveLength(1);
    expect(outsideReferences("as the spec says")).toHaveLength(1);
    expect(outsideReferences("the house style in design/architecture.md", "docs")).toHaveLength(1);
    expect(outsideReferences("[up](../../elsewhere.md)", "docs")).toHaveLength(1);
    expect(outsideReferences("[back](../README.md) and [rooms](architecture.md)", "docs")).toEqual([]);
    expect(outsideReferences("[rooms](docs/architecture.md)")).toEqual([]);
  });

  it("every repository path the README and the guides name exists (or is generated and ignored by git)", () => {
    const named = allDocs().flatMap((doc) => namedPaths(doc).map((path) => ({ doc: doc.path, path })));
    const paths = named.map((n) => n.path);
    expect(paths).toContain("examples/verify-webhook.mjs");
    expect(paths).toContain("src/app.ts");
    expect(paths).toContain("docs/screenshots/dashboard-tickets.png");
    const missing = named.filter(
      ({ path }) =>
        !resolve(ROOT, path).startsWith(ROOT) || !(existsSync(join(ROOT, path)) || ignoredByGit(path)),
    );
    expect(missing).toEqual([]);
  });

  it.each(["/v1/openapi.json", "/_ops/openapi.json"])(
    "no description in %s points at a document outside the repository",
    async (path) => {
      const res = await createApp().request(`http://localhost${path}`);
      const texts = strings(await res.json());
      expect(texts.length).toBeGreaterThan(100);
      expect(texts.flatMap((text) => outsideReferences(text))).toEqual([]);
    },
  );
});
