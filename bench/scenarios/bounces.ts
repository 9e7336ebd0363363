/**
 * Bounce reading (issue 27): the corpus of test/fixtures/bounces/ scored as the Workers test scores
 * it (test/support/bounce-scoring.ts), here in this process, with the time each message takes to
 * parse and read (parseMail + readReport), p50 and p95 over the messages. No server work and no
 * throughput run: BENCH_SECONDS does not apply.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  describe,
  type FixtureEntry,
  goals,
  judge,
  readFixture,
  summarise,
  type Verdict,
} from "../../test/support/bounce-scoring";
import { quantile } from "../lib/api";
import type { Scenario, ScenarioResult } from "../lib/types";

const FIXTURES = join(import.meta.dirname, "../../test/fixtures/bounces");
/** Passes over the corpus; each message's time is its fastest, so a pause elsewhere does not count. */
const PASSES = 5;

export const bounces: Scenario = {
  name: "bounces",
  description:
    "the bounce reader on the labelled real messages of test/fixtures/bounces: issue 27 figures, parse time",
  async run(): Promise<ScenarioResult> {
    const manifest = JSON.parse(readFileSync(join(FIXTURES, "manifest.json"), "utf8")) as FixtureEntry[];
    const files = manifest.map((entry) => ({
      entry,
      bytes: new Uint8Array(readFileSync(join(FIXTURES, entry.file))),
    }));
    const fastest = new Map<string, number>();
    const verdicts: Verdict[] = [];
    for (let pass = 0; pass < PASSES; pass++) {
      for (const { entry, bytes } of files) {
        const started = performance.now();
        const reading = await readFixture(bytes);
        const ms = performance.now() - started;
        fastest.set(entry.file, Math.min(ms, fastest.get(entry.file) ?? ms));
        if (pass === 0) verdicts.push(judge(entry, reading));
      }
    }
    const figures = summarise(verdicts);
    console.log(`  ${describe(figures).join("\n  ")}`);
    const times = [...fastest.values()].sort((a, b) => a - b);
    return {
      name: bounces.name,
      measurements: [],
      goals: goals(figures),
      figures: [
        { label: "corpus", value: figures.messages, unit: "messages" },
        { label: "parse + read per message: p50", value: quantile(times, 0.5), unit: "ms" },
        { label: "parse + read per message: p95", value: quantile(times, 0.95), unit: "ms" },
        { label: "parse + read per message: max", value: times.at(-1) ?? 0, unit: "ms" },
      ],
    };
  },
};
