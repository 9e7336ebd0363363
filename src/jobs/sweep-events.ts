import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../db/client";
import { mayActSql } from "../lib/workspace-gate";
import { type DispatchEnv, dispatchEvents } from "../webhooks/dispatch";
import { fairDueRows } from "../webhooks/fair-share";
import { launcherOf } from "../webhooks/webhook-sender";

/** An event the Queue has not taken after this long is dispatched by the sweep itself. */
const UNTAKEN_AFTER_MS = 30_000;
const MAX_EVENTS_PER_RUN = 500;
/** Longer than the 10 s timeout plus recording: an attempt still `sending` by then lost its result. */
const LOST_AFTER_MS = 30_000;

/**
 * Why a delivery is `unknown`: its request may have reached the receiver before the Worker
 * stopped, so neither success nor failure can be claimed. Final: inbox webhooks have one attempt.
 */
export const LOST_OUTCOME =
  "the outcome of the attempt was lost (the Worker stopped before recording it): the receiver may or may not have received it; not retried";

/**
 * The events nobody took, shared fairly between workspaces (fair-share.ts); a suspended
 * workspace's wait, undispatched, and go once it is reinstated.
 */
export const untakenEventsStatement = (now: number) =>
  fairDueRows({
    table: "events",
    group: "account_id",
    open: sql`dispatched_at IS NULL`,
    due: sql`created_at <= ${now - UNTAKEN_AFTER_MS}`,
    order: "created_at",
    mayGo: (accountId) => mayActSql(accountId),
    budget: MAX_EVENTS_PER_RUN,
  });

/** The sweep's two statements: events nobody took, and attempts whose outcome was lost. */
export function sweepStatements(now: number) {
  return [
    untakenEventsStatement(now),
    sql`UPDATE webhook_deliveries
      SET status = 'unknown', secret = NULL, error = ${LOST_OUTCOME}
      WHERE status = 'sending' AND attempted_at < ${now - LOST_AFTER_MS}`,
  ];
}

/**
 * The minute sweep of the outbox. Events whose Queue message never came (a failed send, a lost
 * message) are dispatched here directly, through the same claim, so nothing is attempted twice.
 * Attempts whose Worker stopped before recording the outcome are closed as `unknown`, not retried.
 */
export async function sweepEvents(db: Db, env: DispatchEnv, now: number, ctx: ExecutionContext) {
  const [untaken, lost] = await runBatch(db, sweepStatements(now));
  const ids = ((untaken?.results ?? []) as Array<{ id: string }>).map((row) => row.id);
  const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
  await dispatchEvents(db, env, ids, now, launcherOf(ctx), fallback);
  return { swept: ids.length, lost: lost?.meta.changes ?? 0 };
}
