import { describe, expect, it } from "vitest";
import { formatTable } from "../../bench/lib/report";
import type { ScenarioResult } from "../../bench/lib/types";

const scenario = (load: { start: number; end: number } | undefined): ScenarioResult => ({
  name: "s",
  measurements: [{ label: "GET /x", rps: 100, p50: 1, p99: 2, non2xx: 0, errors: 0, total: 500 }],
  goals: [
    { label: "ratio x/health", value: 0.4, target: ">= 0.3", met: true, ratio: true },
    { label: "p95 of x", value: 20, target: "< 100 ms", met: true },
  ],
  figures: [{ label: "bytes per row", value: 12, unit: "B" }],
  ...(load ? { load } : {}),
});

const goalLine = (table: string, label: string) => table.split("\n").find((l) => l.includes(label)) ?? "";

describe("the bench's report carries the machine's load", () => {
  it("judges a ratio only from a load of 1 or less when the measurement starts", () => {
    const quiet = formatTable([scenario({ start: 0.4, end: 0.9 })], true);
    expect(goalLine(quiet, "ratio x/health")).toMatch(/PASS\s+0\.40→0\.90$/);
    // The measurement's own load at its end (20 connections on 2 cores) does not unjudge it.
    const ownLoad = formatTable([scenario({ start: 0.6, end: 2.4 })], true);
    expect(goalLine(ownLoad, "ratio x/health")).toMatch(/PASS\s+0\.60→2\.40$/);
    for (const load of [
      { start: 1.3, end: 0.5 },
      { start: 1.01, end: 2.1 },
    ]) {
      const busy = formatTable([scenario(load)], true);
      const line = goalLine(busy, "ratio x/health");
      expect(line).not.toContain("PASS");
      expect(line).toContain(
        `NOT JUDGED (measured under load ${load.start.toFixed(2)}→${load.end.toFixed(2)})`,
      );
      // A bound in milliseconds only gets harder under load: it is judged.
      expect(goalLine(busy, "p95 of x")).toContain("PASS");
    }
    expect(goalLine(formatTable([scenario(undefined)], true), "ratio x/health")).toContain("NOT JUDGED");
  });

  it("prints the load beside every measurement and figure", () => {
    const table = formatTable([scenario({ start: 0.25, end: 0.5 })], true);
    expect(goalLine(table, "GET /x")).toMatch(/0\.25→0\.50$/);
    expect(table).toContain("s: bytes per row = 12 B (no goal; load 0.25→0.50)");
  });
});
