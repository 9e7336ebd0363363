/**
 * The bounce reader against real bounce, complaint and auto-reply messages and labels it did
 * not write (test/fixtures/bounces/README.md): each message on its own, then the figures.
 */
import { describe, expect, it } from "vitest";
import manifestJson from "../fixtures/bounces/manifest.json";
import {
  describe as describeFigures,
  type FixtureEntry,
  goals,
  judge,
  readFixture,
  summarise,
  type Verdict,
} from "../support/bounce-scoring";

declare global {
  interface ImportMeta {
    glob<T>(pattern: string, options: { query: string; import: string; eager: true }): Record<string, T>;
  }
}

// `?url&inline` makes Vite hand over each file as a base64 data URL: its exact bytes, where `?raw`
// would decode it as UTF-8 and replace the 8-bit Shift_JIS of the ezweb samples.
const dataUrls = import.meta.glob<string>("../fixtures/bounces/*.eml", {
  query: "?url&inline",
  import: "default",
  eager: true,
});

function bytesOf(file: string): Uint8Array {
  const url = dataUrls[`../fixtures/bounces/${file}`];
  if (!url) throw new Error(`${file} is in the manifest but not in test/fixtures/bounces/`);
  const binary = atob(url.slice(url.indexOf(",") + 1));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

const manifest = manifestJson as FixtureEntry[];
const verdicts = new Map<string, Verdict>();

async function verdictOf(entry: FixtureEntry): Promise<Verdict> {
  const known = verdicts.get(entry.file);
  if (known) return known;
  const verdict = judge(entry, await readFixture(bytesOf(entry.file)));
  verdicts.set(entry.file, verdict);
  return verdict;
}

describe("bounce fixtures", () => {
  it("has every fixture file in the manifest, once", () => {
    const files = manifest.map((e) => e.file);
    expect(new Set(files).size).toBe(files.length);
    expect(
      Object.keys(dataUrls)
        .map((k) => k.slice(k.lastIndexOf("/") + 1))
        .sort(),
    ).toEqual([...files].sort());
  });

  it.each(manifest.map((e) => [e.file, e] as const))("%s", async (_file, entry) => {
    const reading = await readFixture(bytesOf(entry.file));
    const verdict = judge(entry, reading);
    verdicts.set(entry.file, verdict);
    if (entry.known_miss) {
      expect(verdict.falseReports).toEqual([]);
      return;
    }
    const byAddress = (a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address);
    const expected = entry.expected.recipients.map(({ address, kind }) => ({ address, kind }));
    if (entry.reader_miss) {
      expect(verdict.falseReports).toEqual([]);
      // Still wrong: once the reader gets it right, the mark (and its excuse) must go.
      expect(reading.recipients.toSorted(byAddress)).not.toEqual(expected.toSorted(byAddress));
      return;
    }
    expect(reading.recipients.toSorted(byAddress)).toEqual(expected.toSorted(byAddress));
  });

  it("meets the issue's goals", async () => {
    const all: Verdict[] = [];
    for (const entry of manifest) all.push(await verdictOf(entry));
    const figures = summarise(all);
    console.log(`Bounce fixtures:\n  ${describeFigures(figures).join("\n  ")}`);
    expect(goals(figures).filter((g) => !g.met)).toEqual([]);
  });
});
