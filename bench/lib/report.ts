import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScenarioResult } from "./types";

export interface RunReport {
  startedAt: string;
  finishedAt: string;
  baseUrl: string;
  seconds: number;
  connections: number;
  valid: boolean;
  problems: string[];
  scenarios: ScenarioResult[];
}

const HEADINGS = ["scenario", "target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "requests"];

// A goal read off failed requests would mislead, whichever way it points.
const verdict = (met: boolean, valid: boolean) =>
  !valid ? "NOT JUDGED (invalid run)" : met ? "PASS" : "BELOW GOAL";

// Counts read as counts; everything else with two decimals.
const formatFigure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** A fixed-width table of every measurement, then each goal with PASS or BELOW GOAL, then plain figures. */
export function formatTable(scenarios: ScenarioResult[], valid: boolean): string {
  const rows = scenarios.flatMap((s) =>
    s.measurements.map((m) => [
      s.name,
      m.label,
      m.rps.toFixed(0),
      m.p50.toFixed(1),
      m.p99.toFixed(1),
      String(m.non2xx),
      String(m.errors),
      String(m.total),
    ]),
  );
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  // Text columns read left-aligned, figures right-aligned so digits line up.
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  const goals = scenarios.flatMap((s) =>
    s.goals.map(
      (g) => `${s.name}: ${g.label} = ${g.value.toFixed(2)} (goal ${g.target}) ${verdict(g.met, valid)}`,
    ),
  );
  const figures = scenarios.flatMap((s) =>
    (s.figures ?? []).map(
      (f) => `${s.name}: ${f.label} = ${formatFigure(f.value)}${f.unit ? ` ${f.unit}` : ""} (no goal)`,
    ),
  );
  return [line(HEADINGS), line(widths.map((w) => "-".repeat(w))), ...rows.map(line), "", ...goals, ...figures]
    .join("\n")
    .trimEnd();
}

/** Writes the figures for tools and later comparison; the token is deliberately not in them. */
export function writeJson(report: RunReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "latest.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
