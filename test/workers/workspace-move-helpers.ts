import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { beginMove, type StepReport, stepMove } from "../../src/features/workspace-moves/move.service";
import { tallyAll } from "../../src/features/workspace-moves/verify";
import { callJson, directory, shardD1Of } from "./helpers";

/** A test runs the move in its own isolate: nothing to wait for. */
export const NO_SETTLE = { settleMs: 0 };

/** Starts a move and runs its steps until it is over, or until `steps` steps (a crash). */
export async function runMove(
  accountId: string,
  to: string,
  options: { steps?: number; between?: (report: StepReport, n: number) => Promise<void> } = {},
): Promise<StepReport[]> {
  const reports = [await beginMove(directory(), env, accountId, to, NO_SETTLE)];
  for (let n = 1; n <= (options.steps ?? 100_000); n++) {
    const report = await stepMove(directory(), env, accountId, NO_SETTLE);
    reports.push(report);
    await options.between?.(report, n);
    if (report.step === "done" || report.step === "aborted") break;
  }
  return reports;
}

/** Runs the steps of a move already begun until it is over. */
export async function finishMove(accountId: string, now?: number): Promise<StepReport> {
  for (;;) {
    const report = await stepMove(directory(), env, accountId, { ...NO_SETTLE, ...(now ? { now } : {}) });
    if (report.step === "done" || report.step === "aborted") return report;
  }
}

/** Every table's rows of the workspace on a shard: counts and checksums. */
export const talliesOn = (shard: string, accountId: string) => tallyAll(shardD1Of(shard), accountId);

/** The workspace has rows on `shard` only: the other shard holds none of its rows. */
export async function wholeOn(shard: string, other: string, accountId: string, expected?: unknown) {
  const here = await talliesOn(shard, accountId);
  const there = await talliesOn(other, accountId);
  for (const [table, tally] of Object.entries(there))
    expect({ table, count: tally.count }).toEqual({ table, count: 0 });
  if (expected) expect(here).toEqual(expected);
  const cursors = await shardD1Of(shard)
    .prepare("SELECT count(*) AS n FROM move_cursors WHERE account_id = ?")
    .bind(accountId)
    .first<{ n: number }>();
  expect(cursors?.n).toBe(0);
  return here;
}

/** What the API answers for a workspace's main lists and a few records (compared before and after). */
export async function apiView(token: string) {
  const paths = [
    "/v1/tickets?limit=100",
    "/v1/customers?limit=100",
    "/v1/emails?limit=100",
    "/v1/inboxes",
    "/v1/keys",
    "/v1/accounts",
  ];
  const view: Record<string, unknown> = {};
  for (const path of paths) {
    const { status, body } = await callJson("GET", path, { token });
    expect(status, path).toBe(200);
    view[path] = body;
  }
  return view;
}
