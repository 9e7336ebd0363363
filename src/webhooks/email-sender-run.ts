import { sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../db/client";
import { groupCommit } from "../db/group-commit";
import { environmentOf } from "../env";
import { decryptSecret } from "../lib/crypto";
import { describeError, log } from "../lib/logger";
import { iso } from "../lib/time";
import { mayActSql } from "../lib/workspace-gate";
import { type DeliveryResult, deliver } from "./deliver";
import type { DispatchEnv } from "./dispatch";
import { CLAIM_LEASE_MS, type EmailDeliveryJob } from "./email-delivery-job";
import { DISABLE_AFTER_FAILING_MS, RETRY_DELAYS_MS, TEST_EVENT } from "./email-events";

/**
 * A sender's run (the WebhookSender entrypoint, or inline where launching failed): attempts of
 * claimed email-event rows, a few at a time, each outcome recorded under its claim.
 */

/**
 * The outcome of one attempt, recorded in one batch: the attempt row, the outbox row's next state
 * (guarded by the attempt number, so a late outcome of a lapsed claim changes nothing), and the
 * endpoint's failing streak, which disables it once it has lasted DISABLE_AFTER_FAILING_MS.
 */
function outcomeStatements(job: EmailDeliveryJob, result: DeliveryResult, retry: boolean): Statement[] {
  const { outboxId, endpointId, attempt, now } = job;
  const statements: Statement[] = [
    sql`INSERT INTO email_webhook_attempts
          (account_id, endpoint_id, outbox_id, attempt, status_code, duration_ms, error, created_at)
        SELECT account_id, endpoint_id, id, ${attempt}, ${result.statusCode}, ${result.durationMs},
               ${result.error}, ${now}
        FROM email_webhook_outbox WHERE id = ${outboxId}`,
  ];
  const owned = sql`id = ${outboxId} AND state = 'delivering' AND attempts = ${attempt}`;
  if (result.status === "succeeded") {
    statements.push(
      sql`UPDATE email_webhook_outbox SET state = 'succeeded', next_attempt_at = NULL WHERE ${owned}`,
      sql`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ${endpointId} AND failing_since IS NOT NULL`,
    );
    return statements;
  }
  const delay = RETRY_DELAYS_MS[attempt - 1];
  statements.push(
    retry && delay !== undefined
      ? sql`UPDATE email_webhook_outbox SET state = 'pending', next_attempt_at = ${now + delay} WHERE ${owned}`
      : sql`UPDATE email_webhook_outbox SET state = 'failed', next_attempt_at = NULL WHERE ${owned}`,
  );
  if (!retry) return statements;
  statements.push(
    sql`UPDATE webhook_endpoints SET failing_since = ${now}
        WHERE id = ${endpointId} AND enabled = 1 AND failing_since IS NULL`,
    sql`UPDATE webhook_endpoints
        SET enabled = 0, updated_at = ${now},
            disabled_reason = 'every delivery failed from ' || strftime('%Y-%m-%dT%H:%M:%SZ', failing_since / 1000, 'unixepoch')
              || ' to ' || ${iso(now)} || ' (the last: ' || ${result.error ?? "failed"} || '); PATCH enabled: true to resume'
        WHERE id = ${endpointId} AND enabled = 1 AND failing_since <= ${now - DISABLE_AFTER_FAILING_MS}`,
  );
  return statements;
}

/** One attempt of a claimed row: its result, and whether a failure may be retried. */
async function attemptOne(env: DispatchEnv, job: EmailDeliveryJob) {
  // A disabled endpoint takes no events; only a test, which its owner asked for, still goes out.
  if (!job.enabled && job.event !== TEST_EVENT) {
    const result: DeliveryResult = {
      status: "failed",
      statusCode: null,
      durationMs: 0,
      error: "not sent: the endpoint is disabled",
    };
    return { result, retry: false };
  }
  try {
    const secret = await decryptSecret(env.ENCRYPTION_KEY, job.secret);
    const event = { id: job.eventId, name: job.event, body: job.body };
    return { result: await deliver({ url: job.url, secret }, event, environmentOf(env)), retry: true };
  } catch (error) {
    // A secret that no longer decrypts (a rotated ENCRYPTION_KEY) fails the attempt, visibly.
    const result: DeliveryResult = {
      status: "failed",
      statusCode: null,
      durationMs: 0,
      error: `not sent: ${String(error)}`,
    };
    return { result, retry: true };
  }
}

/**
 * Claimed rows handed back unattempted: pending and due at once, their attempt uncounted, so the
 * next sweep sends them as if this claim had never been (guarded like an outcome: a claim that
 * lapsed meanwhile is someone else's).
 */
const releaseStatement = (jobs: EmailDeliveryJob[], now: number) =>
  sql`UPDATE email_webhook_outbox
      SET state = 'pending', attempts = attempts - 1, next_attempt_at = ${now}
      WHERE ${ownedRows(jobs)}`;

/** The rows of `jobs` still under the very lease each job holds (its attempt and `leaseUntil`). */
const ownedRows = (jobs: EmailDeliveryJob[]) =>
  sql`state = 'delivering' AND (id, attempts, next_attempt_at) IN (
        SELECT json_extract(j.value, '$[0]'), json_extract(j.value, '$[1]'), json_extract(j.value, '$[2]')
        FROM json_each(${JSON.stringify(jobs.map((job) => [job.outboxId, job.attempt, job.leaseUntil]))}) j)`;

/**
 * The jobs whose claim is still this one's, their lease renewed from now: a sender may start well
 * after the claim (handed on, or on a busy machine), and a row whose lease lapsed meanwhile may be
 * the sweep's by now; attempting it as well sent the receiver a duplicate. The renewal moves the
 * lease to a new value from the one the job holds, so it is exclusive too: two runs of one claim
 * (a launch whose call failed after its sender started, and the inline fallback) renew once, and
 * only the run that renewed attempts. A workspace suspended since the claim gets its rows back
 * unattempted and uncounted (`releaseStatement`): they hold like any of its rows. One round trip.
 */
async function stillOwned(db: Db, jobs: EmailDeliveryJob[]): Promise<EmailDeliveryJob[]> {
  const [, renewed] = await runBatch(db, [
    sql`${releaseStatement(jobs, jobs[0]?.now ?? Date.now())}
        AND NOT ${mayActSql(sql`email_webhook_outbox.account_id`)}`,
    sql`UPDATE email_webhook_outbox SET next_attempt_at = max(next_attempt_at + 1, ${Date.now() + CLAIM_LEASE_MS})
        WHERE ${ownedRows(jobs)} RETURNING id, next_attempt_at`,
  ]);
  const leases = new Map(
    ((renewed?.results ?? []) as Array<{ id: number; next_attempt_at: number }>).map((row) => [
      row.id,
      row.next_attempt_at,
    ]),
  );
  return jobs.flatMap((job) => {
    const leaseUntil = leases.get(job.outboxId);
    return leaseUntil === undefined ? [] : [{ ...job, leaseUntil }];
  });
}

/**
 * One sender invocation's events: at most EVENTS_PER_SENDER, all of one endpoint (see `launchAll`).
 * Six simultaneous connections is all a Worker invocation gets, so this many requests at once.
 */
export const EVENTS_PER_SENDER = 50;
const CONNECTIONS_PER_SENDER = 5;
/**
 * No attempt starts later than this into a sender's run, so the last (10 s at most, then its
 * record) ends inside the 30 s a `waitUntil` may run on; what is left is handed on.
 */
const START_BUDGET_MS = 15_000;

export interface SenderOptions {
  budgetMs?: number;
  /**
   * Starts a fresh sender for the jobs this one had no time to start (its own 30 s); without it,
   * or when it fails, they are released to the sweep (`releaseStatement`).
   */
  handOn?: ((jobs: EmailDeliveryJob[]) => Promise<void>) | undefined;
}

/**
 * Attempts claimed rows, CONNECTIONS_PER_SENDER at a time, each outcome recorded as soon as it is
 * known, those that come together in one batch (`groupCommit`): a chunk of fifty costs a few D1
 * round trips, not fifty (and one to check the claims are still its own), and the next attempt does not wait for the last one's record. The first
 * CONNECTIONS_PER_SENDER always start, so every sender makes progress; the rest only within
 * `budgetMs`, and those left are handed on. A failed write is logged: the claim lapses and the
 * sweep tries the row again.
 */
export async function attemptEmailDeliveries(
  db: Db,
  env: DispatchEnv,
  claimed: EmailDeliveryJob[],
  { budgetMs = START_BUDGET_MS, handOn }: SenderOptions = {},
): Promise<void> {
  if (claimed.length === 0) return;
  const started = Date.now();
  const owned = await stillOwned(db, claimed);
  const record = groupCommit(async (groups: Statement[][]) => {
    await runBatch(db, groups.flat());
    return groups.map(() => undefined);
  });
  const records: Promise<void>[] = [];
  const unstarted: EmailDeliveryJob[] = [];
  let next = 0;
  const worker = async () => {
    for (let job = owned[next]; job; job = owned[next]) {
      next++;
      if (next > CONNECTIONS_PER_SENDER && Date.now() - started >= budgetMs) {
        unstarted.push(job);
        continue;
      }
      const { result, retry } = await attemptOne(env, job);
      records.push(
        record(outcomeStatements(job, result, retry)).catch((error: unknown) =>
          log.warn("email_webhook.record_failed", { event_id: job.eventId, ...describeError(error) }),
        ),
      );
      if (result.status === "failed")
        log.warn("email_webhook.failed", {
          endpoint: job.endpointId,
          event_id: job.eventId,
          attempt: job.attempt,
        });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONNECTIONS_PER_SENDER, owned.length) }, worker));
  await Promise.all(records);
  if (unstarted.length === 0) return;
  const handed = await (handOn?.(unstarted).then(
    () => true,
    (error: unknown) => {
      log.warn("email_webhook.hand_on_failed", { count: unstarted.length, ...describeError(error) });
      return false;
    },
  ) ?? false);
  // Due from the claim's clock, like every other time of the attempt.
  if (!handed) await runBatch(db, [releaseStatement(unstarted, unstarted[0]?.now ?? Date.now())]);
}
