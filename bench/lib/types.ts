/** The contract between the harness and a scenario: one file per scenario implements `Scenario`. */

/** What every scenario gets: where the API is, an admin key for it, and how long to measure each target. */
export interface BenchContext {
  baseUrl: string;
  token: string;
  seconds: number;
}

/** The figures for one measured target (latencies in milliseconds). */
export interface Measurement {
  label: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** A figure an issue set as a target; informational, it never fails the run. */
export interface Goal {
  label: string;
  value: number;
  target: string;
  met: boolean;
}

export interface ScenarioResult {
  name: string;
  measurements: Measurement[];
  goals: Goal[];
}

export interface Scenario {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}
