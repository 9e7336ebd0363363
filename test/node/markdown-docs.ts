import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The repository's documentation read the way a reader follows it: the README, the guides under
 * docs/, their links and headings. Shared by the README test and the docs links test, so both judge
 * one and the same set of files.
 */
export const ROOT = resolve(new URL("../..", import.meta.url).pathname);

export interface Doc {
  /** Path from the repository root, e.g. `docs/emails.md`. */
  path: string;
  text: string;
}

export function readDoc(path: string): Doc {
  return { path, text: readFileSync(join(ROOT, path), "utf8") };
}

/** The README first, then every guide under docs/ (not its subfolders: those hold images). */
export function allDocs(): Doc[] {
  const guides = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...guides].map(readDoc);
}

/** The text outside fenced code blocks, fences replaced by blank lines so line numbers hold. */
export function prose(text: string): string {
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line;
    })
    .join("\n");
}

/** The bodies of the fenced blocks whose info string is `lang` (```text, ```sh ...). */
export function fencedBlocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^\\s*\`\`\`${lang}\\n([\\s\\S]*?)^\\s*\`\`\``, "gm"))].map(
    (m) => m[1] as string,
  );
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\s-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a document offers: its headings' slugs, repeated ones numbered as GitHub does. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] as string);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** Markdown links and images of the prose (not of code blocks or code spans): their targets. */
export function linkTargets(text: string): string[] {
  const withoutSpans = prose(text).replace(/`[^`\n]*`/g, "");
  return [...withoutSpans.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/**
 * What is wrong with `doc`'s links to files and anchors of the repository: a file that does not
 * exist, a path that leaves the repository, an anchor no heading of the target makes.
 */
export function brokenLinks(doc: Doc): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(doc.text)) {
    if (isExternal(target)) continue;
    const [file = "", anchor] = target.split("#", 2);
    const targetPath = file === "" ? doc.path : relative(ROOT, resolve(ROOT, dirname(doc.path), file));
    if (targetPath.startsWith("..")) broken.push(`${doc.path}: ${target} leaves the repository`);
    else if (file !== "" && !existsSync(join(ROOT, targetPath)))
      broken.push(`${doc.path}: ${target} names no file`);
    else if (anchor !== undefined) {
      const targetText = targetPath === doc.path ? doc.text : readFileSync(join(ROOT, targetPath), "utf8");
      if (!anchors(targetText).has(anchor))
        broken.push(`${doc.path}: ${target} names no heading of ${targetPath}`);
    }
  }
  return broken;
}

/** The root-relative files `doc` links to (anchors dropped), for who-links-to-what checks. */
export function linkedFiles(doc: Doc): string[] {
  return linkTargets(doc.text)
    .filter((target) => !isExternal(target) && !target.startsWith("#"))
    .map((target) => relative(ROOT, resolve(ROOT, dirname(doc.path), target.split("#")[0] as string)));
}
