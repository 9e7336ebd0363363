/** The contract between the harness and a scenario: one file per scenario implements `Scenario`. */

/** What every scenario gets: where the API is, an admin key for it, and how long to measure each target. */
export interface BenchContext {
  baseUrl: string;
  token: string;
  seconds: number;
  /** A verified sending domain of the token's workspace (BENCH_FROM_DOMAIN against BENCH_URL). */
  fromDomain?: string | undefined;
  /** The local server's process group, for its CPU time (absent against BENCH_URL). */
  local?: { processGroup: number } | undefined;
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
  /**
   * A ratio of two figures measured on this machine (a path against GET /health, 100k rows against
   * 1k): load from other processes moves its parts unevenly, so it is judged only on a quiet
   * machine (report.ts).
   */
  ratio?: boolean;
}

/** A figure reported as it is, with no goal to compare it with. */
export interface Figure {
  label: string;
  value: number;
  unit: string;
}

/** One email path's row of the combined table: what an email costs and how fast the path runs. */
export interface EmailPath {
  path: string;
  /** Per email (or inbound message); undefined when not measured (against BENCH_URL). */
  roundTrips: number | undefined;
  cpuMs: number | undefined;
  /** The throughput figure as text, e.g. `812 emails/s = 0.41× GET /health`. */
  throughput: string;
  /** The label of this scenario's goal that judges the row; none for a path without a target. */
  goal?: string;
}

export interface MachineLoad {
  start: number;
  end: number;
}

export interface ScenarioResult {
  name: string;
  measurements: Measurement[];
  goals: Goal[];
  figures?: Figure[];
  paths?: EmailPath[];
  /** The machine's 1-minute load average when the scenario started and ended (run.ts sets it). */
  load?: MachineLoad;
  /** The load just before a scenario that seeds first began to measure (waitForQuiet): run.ts takes it as the start. */
  measuredFrom?: number;
  /** Why the scenario's figures cannot be trusted (besides failed requests); any makes the run invalid. */
  problems?: string[];
}

export interface Scenario {
  name: string;
  description: string;
  /** Sends email or makes inboxes, so it needs `BenchContext.fromDomain`, a verified domain. */
  needsSendingDomain?: boolean;
  /** Needs no API server (it builds or starts what it measures itself): run alone, none is started. */
  standalone?: boolean;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}
