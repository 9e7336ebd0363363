import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatLoad, underLoad } from "./machine-load";
import type { Goal, MachineLoad, ScenarioResult } from "./types";

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

const HEADINGS = ["scenario", "target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "requests", "load"];

// A goal read off failed requests would mislead, whichever way it points; a ratio measured on a
// busy machine too (machine-load.ts).
function verdict(goal: Goal, valid: boolean, load: MachineLoad | undefined): string {
  if (!valid) return "NOT JUDGED (invalid run)";
  if (underLoad(goal, load)) return `NOT JUDGED (measured under load ${formatLoad(load)})`;
  return goal.met ? "PASS" : "MISS";
}

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

const GOAL_HEADINGS = ["scenario", "goal", "value", "target", "result", "load"];

const PATH_HEADINGS = [
  "path",
  "D1 round trips per email",
  "CPU ms per email",
  "throughput",
  "target",
  "result",
  "load",
];

const perEmail = (value: number | undefined) => (value === undefined ? "not measured" : value.toFixed(1));

/** The email paths' combined rows: cost per email, throughput, and the goal that judges each. */
const pathRows = (scenarios: ScenarioResult[], valid: boolean) =>
  scenarios.flatMap((s) =>
    (s.paths ?? []).map((p) => {
      const goal = p.goal === undefined ? undefined : s.goals.find((g) => g.label === p.goal);
      return [
        p.path,
        perEmail(p.roundTrips),
        perEmail(p.cpuMs),
        p.throughput,
        goal?.target ?? "none",
        goal ? verdict(goal, valid, s.load) : p.goal === undefined ? "-" : "NOT MEASURED",
        formatLoad(s.load),
      ];
    }),
  );

const goalRows = (scenarios: ScenarioResult[], valid: boolean) =>
  scenarios.flatMap((s) =>
    s.goals.map((g) => [
      s.name,
      g.label,
      g.value.toFixed(2),
      g.target,
      verdict(g, valid, s.load),
      formatLoad(s.load),
    ]),
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
      formatLoad(s.load),
    ]),
  );
  const figures = scenarios.flatMap((s) =>
    (s.figures ?? []).map(
      (f) =>
        `${s.name}: ${f.label} = ${formatFigure(f.value)}${f.unit ? ` ${f.unit}` : ""} (no goal; load ${formatLoad(s.load)})`,
    ),
  );
  const paths = pathRows(scenarios, valid);
  return [
    ...fixedWidth(HEADINGS, rows, (i) => i >= 2),
    "",
    ...(paths.length > 0 ? [...fixedWidth(PATH_HEADINGS, paths, (i) => i === 1 || i === 2), ""] : []),
    ...fixedWidth(GOAL_HEADINGS, goalRows(scenarios, valid), (i) => i === 2),
    "",
    ...figures,
  ]
    .join("\n")
    .trimEnd();
}

function markdownTable(headings: string[], rows: string[][]): string {
  const escapePipes = (cell: string) => cell.replaceAll("|", "\\|");
  const row = (cells: string[]) => `| ${cells.map(escapePipes).join(" | ")} |`;
  return [row(headings), row(headings.map(() => "---")), ...rows.map(row)].join("\n");
}

/** The goals as a Markdown table, as docs/benchmarks.md shows them. */
export function formatGoalsMarkdown(scenarios: ScenarioResult[], valid: boolean): string {
  return markdownTable(GOAL_HEADINGS, goalRows(scenarios, valid));
}

/** The email paths' combined table in Markdown, or nothing when no scenario run has one. */
export function formatPathsMarkdown(scenarios: ScenarioResult[], valid: boolean): string | undefined {
  const rows = pathRows(scenarios, valid);
  return rows.length > 0 ? markdownTable(PATH_HEADINGS, rows) : undefined;
}

/**
 * Writes the figures for tools and later comparison (latest.json; the token is deliberately not in
 * it) and the goals table for docs/benchmarks.md (latest.md).
 */
export function writeResults(report: RunReport, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "latest.json");
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const when = `${report.startedAt.slice(0, 16).replace("T", " ")} UTC, ${report.seconds} s per target`;
  const paths = formatPathsMarkdown(report.scenarios, report.valid);
  writeFileSync(
    join(dir, "latest.md"),
    `Run of ${when}:\n\n${paths ? `${paths}\n\n` : ""}${formatGoalsMarkdown(report.scenarios, report.valid)}\n`,
  );
  return file;
}
