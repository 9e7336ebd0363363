/**
 * The Worker's bundle and its cold start (issue 41): builds the bundle `npm run deploy` would upload
 * (`wrangler deploy --dry-run`, no account or network needed), minified as wrangler.toml says and,
 * for comparison, unminified; reports each one's size raw and gzipped (zlib's default level) and the
 * median cold start of each (bench/lib/cold-start.ts) beside an empty Worker's. The machine's load
 * average is read at the start and the end: on a busy machine every start-up takes longer. No
 * server and no throughput run: BENCH_SECONDS does not apply; BENCH_COLD_STARTS sets the starts
 * per script (default 5).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "smol-toml";
import { buildAssets } from "../../scripts/build-assets";
import { ROOT, WRANGLER } from "../../scripts/lib/wrangler";
import { quantile } from "../lib/api";
import { type ColdStart, coldStart, EMPTY_WORKER } from "../lib/cold-start";
import type { Figure, Scenario, ScenarioResult } from "../lib/types";

function starts(): number {
  const text = process.env.BENCH_COLD_STARTS ?? "5";
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`BENCH_COLD_STARTS must be a positive integer, not "${text}"`);
  return count;
}

/** `wrangler deploy --dry-run` into `dir`; answers the bundle's bytes. */
function build(dir: string, minify: boolean): Buffer {
  const args = ["deploy", "--dry-run", "--outdir", dir, `--minify=${minify}`];
  const result = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  if (result.status !== 0)
    throw new Error(`wrangler ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
  return readFileSync(join(dir, "index.js"));
}

const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) =>
  round(
    quantile(
      [...values].sort((a, b) => a - b),
      0.5,
    ),
  );
const load = () => (loadavg()[0] ?? 0).toFixed(2);

export const bundle: Scenario = {
  name: "bundle",
  description: "the Worker bundle's size (raw, gzip; minified and not) and a fresh isolate's cold start",
  standalone: true,
  async run(): Promise<ScenarioResult> {
    const count = starts();
    const loadAtStart = load();
    const { compatibility_date } = parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8")) as {
      compatibility_date: string;
    };
    buildAssets();
    const dir = mkdtempSync(join(tmpdir(), "bundle-"));
    try {
      const scripts = {
        minified: build(join(dir, "min"), true),
        unminified: build(join(dir, "full"), false),
      };
      writeFileSync(join(dir, "minified.js"), scripts.minified);
      writeFileSync(join(dir, "unminified.js"), scripts.unminified);
      writeFileSync(join(dir, "empty.js"), EMPTY_WORKER);
      const names = ["empty", "minified", "unminified"] as const;
      type Name = (typeof names)[number];
      const runs = Object.fromEntries(names.map((name) => [name, [] as ColdStart[]])) as Record<
        Name,
        ColdStart[]
      >;
      // Interleaved, so a burst of load elsewhere falls on every script alike.
      for (let i = 0; i < count; i++) {
        for (const name of names) runs[name].push(await coldStart(dir, `${name}.js`, compatibility_date));
      }
      const wall = (name: Name) => median(runs[name].map((run) => run.wallMs));
      const cpu = (name: Name) => median(runs[name].map((run) => run.cpuMs ?? Number.NaN));
      const figures: Figure[] = [];
      for (const kind of ["minified", "unminified"] as const) {
        figures.push(
          { label: `${kind} bundle`, value: round(scripts[kind].length / 1024), unit: "KiB" },
          { label: `${kind} bundle, gzip`, value: round(gzipSync(scripts[kind]).length / 1024), unit: "KiB" },
          { label: `${kind}: spawn to first GET /health 200`, value: wall(kind), unit: "ms (median)" },
          { label: `${kind}: workerd CPU until then`, value: cpu(kind), unit: "ms (median)" },
        );
      }
      figures.push(
        { label: "empty Worker: spawn to first 200", value: wall("empty"), unit: "ms (median)" },
        { label: "empty Worker: workerd CPU until then", value: cpu("empty"), unit: "ms (median)" },
        { label: "cold starts per script", value: count, unit: "" },
        { label: "load average (1 min) at start", value: Number(loadAtStart), unit: "" },
        { label: "load average (1 min) at end", value: Number(load()), unit: "" },
      );
      for (const figure of figures)
        console.log(`  ${figure.label}: ${figure.value} ${figure.unit}`.trimEnd());
      return { name: bundle.name, measurements: [], goals: [], figures };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
