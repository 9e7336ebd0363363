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
  !valid ? "NOT JUDGED (invalid run)" : met ? "PASS" : "MISS";

// Counts read as counts; everything else with two decimals.
const formatFigure = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** Lines of a fixed-width table: text left-aligned, figures (`figureColumns`) right-aligned so digits line up. */
function fixedWidth(headings: string[], rows: string[][], figureColumns: (i: number) => boolean): string[] {
  const widths = headings.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (figureColumns(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headings), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

const GOAL_HEADINGS = ["scenario", "goal", "value", "target", "result"];

const goalRows = (scenarios: ScenarioResult[], valid: boolean) =>
  scenarios.flatMap((s) =>
    s.goals.map((g) => [s.name, g.label, g.value.toFixed(2), g.target, verdict(g.met, valid)]),
  );

/** Every measurement, then one table of every goal with its value, target and PASS or MISS, then plain figures. */
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
  const figures = scenarios.flatMap((s) =>
    (s.figures ?? []).map(
      (f) => `${s.name}: ${f.label} = ${formatFigure(f.value)}${f.unit ? ` ${f.unit}` : ""} (no goal)`,
    ),
  );
  return [
    ...fixedWidth(HEADINGS, rows, (i) => i >= 2),
    "",
    ...fixedWidth(GOAL_HEADINGS, goalRows(scenarios, valid), (i) => i === 2),
    "",
    ...figures,
  ]
    .join("\n")
    .trimEnd();
}

/** The goals as a Markdown table, as the README's Benchmarks section shows them. */
export function formatGoalsMarkdown(scenarios: ScenarioResult[], valid: boolean): string {
  const escapePipes = (cell: string) => cell.replaceAll("|", "\\|");
  const row = (cells: string[]) => `| ${cells.map(escapePipes).join(" | ")} |`;
  return [
    row(GOAL_HEADINGS),
    row(GOAL_HEADINGS.map(() => "---")),
    ...goalRows(scenarios, valid).map(row),
  ].join("\n");
}

/**
 * Writes the figures for tools and later comparison (latest.json; the token is deliberately not in
 * it) and the goals table for the README (latest.md).
 */
export function writeResults(report: RunReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "latest.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const when = `${report.startedAt.slice(0, 16).replace("T", " ")} UTC, ${report.seconds} s per target`;
  writeFileSync(
    join(dir, "latest.md"),
    `Run of ${when}:\n\n${formatGoalsMarkdown(report.scenarios, report.valid)}\n`,
  );
  return file;
}
