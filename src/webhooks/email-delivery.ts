import { type SQL, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../db/client";
import { environmentOf } from "../env";
import { decryptSecret } from "../lib/crypto";
import { describeError, log } from "../lib/logger";
import { iso } from "../lib/time";
import { type DeliveryResult, deliver } from "./deliver";
import type { DispatchEnv } from "./dispatch";
import { DISABLE_AFTER_FAILING_MS, MAX_ATTEMPTS, RETRY_DELAYS_MS, TEST_EVENT } from "./email-events";

/**
 * How long a claim holds a row: past the 10 s timeout and the recording of the outcome. A row still
 * `delivering` after that lost its outcome with its Worker and is due again (the receiver may see
 * the event twice, with the same `X-Webhook-Id`; it never sees it zero times).
 */
const CLAIM_LEASE_MS = 60_000;
const MAX_ROWS_PER_SWEEP = 500;

/** One claimed outbox row with its endpoint as it is now: everything one attempt needs. */
export interface EmailDeliveryJob {
  outboxId: number;
  endpointId: string;
  eventId: string;
  event: string;
  body: string;
  /** This attempt's number, from 1; the claim counted it. */
  attempt: number;
  url: string;
  /** Encrypted, as stored; decrypted only inside the attempt. */
  secret: string;
  enabled: boolean;
  /** The clock of the claim: attempts, retries and the disabling rule are timed from it. */
  now: number;
}

interface ClaimedRow {
  id: number;
  endpoint_id: string;
  event_id: string;
  event: string;
  body: string;
  attempts: number;
}

interface EndpointRow {
  id: string;
  url: string;
  secret: string;
  enabled: number;
}

/**
 * Claims the due rows `selector` picks (pending → delivering, the attempt counted) and reads their
 * endpoints, in one batch. The claim is a conditional update, so a row is claimed by one caller
 * only: concurrent sweeps, or a sweep racing the announcement, find nothing left to send.
 */
async function claim(db: Db, selector: SQL, now: number): Promise<EmailDeliveryJob[]> {
  const [claimed, endpoints] = await runBatch(db, [
    sql`UPDATE email_webhook_outbox
        SET state = 'delivering', attempts = attempts + 1, next_attempt_at = ${now + CLAIM_LEASE_MS}
        WHERE ${selector} AND state IN ('pending', 'delivering') AND next_attempt_at <= ${now}
          AND attempts < ${MAX_ATTEMPTS}
        RETURNING id, endpoint_id, event_id, event, body, attempts`,
    sql`SELECT id, url, secret, enabled FROM webhook_endpoints
        WHERE id IN (SELECT endpoint_id FROM email_webhook_outbox WHERE ${selector})`,
  ]);
  const byId = new Map(((endpoints?.results ?? []) as EndpointRow[]).map((row) => [row.id, row]));
  return ((claimed?.results ?? []) as ClaimedRow[]).flatMap((row) => {
    const endpoint = byId.get(row.endpoint_id);
    if (!endpoint) return []; // deleted since: its outbox rows went with it
    return [
      {
        outboxId: row.id,
        endpointId: row.endpoint_id,
        eventId: row.event_id,
        event: row.event,
        body: row.body,
        attempt: row.attempts,
        url: endpoint.url,
        secret: endpoint.secret,
        enabled: endpoint.enabled === 1,
        now,
      },
    ];
  });
}

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

/** One attempt of a claimed row, and its outcome recorded. */
export async function attemptEmailDelivery(db: Db, env: DispatchEnv, job: EmailDeliveryJob): Promise<void> {
  let result: DeliveryResult;
  // A disabled endpoint takes no events; only a test, which its owner asked for, still goes out.
  const skipped = !job.enabled && job.event !== TEST_EVENT;
  if (skipped) {
    result = {
      status: "failed",
      statusCode: null,
      durationMs: 0,
      error: "not sent: the endpoint is disabled",
    };
  } else {
    try {
      const secret = await decryptSecret(env.ENCRYPTION_KEY, job.secret);
      const event = { id: job.eventId, name: job.event, body: job.body };
      result = await deliver({ url: job.url, secret }, event, environmentOf(env));
    } catch (error) {
      // A secret that no longer decrypts (a rotated ENCRYPTION_KEY) fails the attempt, visibly.
      result = { status: "failed", statusCode: null, durationMs: 0, error: `not sent: ${String(error)}` };
    }
  }
  await runBatch(db, outcomeStatements(job, result, !skipped));
  if (result.status === "failed") {
    log.warn("email_webhook.failed", {
      endpoint: job.endpointId,
      event_id: job.eventId,
      attempt: job.attempt,
    });
  }
}

/** Starts one attempt where it runs on its own (the WebhookSender entrypoint); resolves once started. */
export type EmailLaunch = (job: EmailDeliveryJob) => Promise<void>;
export type Fallback = (attempt: Promise<void>) => void;

/**
 * The launcher through a context's WebhookSender (`ctx.exports`). Here rather than beside the
 * class, so that request handlers reach it without importing `cloudflare:workers`.
 */
export const emailLauncherOf = (ctx: ExecutionContext) => (job: EmailDeliveryJob) =>
  ctx.exports.WebhookSender.sendEmailEvent(job);

async function launchAll(
  db: Db,
  env: DispatchEnv,
  jobs: EmailDeliveryJob[],
  launch: EmailLaunch,
  fallback: Fallback,
) {
  await Promise.all(
    jobs.map((job) =>
      launch(job).catch((error: unknown) => {
        // Claimed, so it is attempted here or only after the lease lapses.
        log.warn("email_webhook.launch_failed", { event_id: job.eventId, ...describeError(error) });
        fallback(attemptEmailDelivery(db, env, job));
      }),
    ),
  );
}

/** Delivers just-committed events at once (the announcement); the sweep covers a lost one. */
export async function deliverEmailEvents(
  db: Db,
  env: DispatchEnv,
  eventIds: string[],
  now: number,
  launch: EmailLaunch,
  fallback: Fallback,
): Promise<number> {
  if (eventIds.length === 0) return 0;
  const jobs = await claim(
    db,
    sql`event_id IN (SELECT value FROM json_each(${JSON.stringify(eventIds)}))`,
    now,
  );
  await launchAll(db, env, jobs, launch, fallback);
  return jobs.length;
}

/**
 * Delivers the events written since `mark` (an event id's first 14 characters, `evt_` and a ULID's
 * time: see features/email-webhooks/fact-events.ts), whoever wrote them: for facts whose events
 * are made in SQL, whose ids nobody knew before the batch. A range of `email_webhook_outbox_event`;
 * one probe when nothing was written.
 */
export async function deliverEmailEventsSince(
  db: Db,
  env: DispatchEnv,
  mark: string,
  now: number,
  launch: EmailLaunch,
  fallback: Fallback,
): Promise<number> {
  const jobs = await claim(db, sql`event_id >= ${mark} AND event_id < 'evt~'`, now);
  await launchAll(db, env, jobs, launch, fallback);
  return jobs.length;
}

/**
 * The minute sweep: rows due for a retry, rows whose announcement was lost, and rows whose claim
 * lapsed. Those at their last attempt whose claim lapsed are closed as failed.
 */
export async function sweepEmailWebhooks(
  db: Db,
  env: DispatchEnv,
  now: number,
  launch: EmailLaunch,
  fallback: Fallback,
): Promise<number> {
  const [due] = await runBatch(db, [
    sql`SELECT id FROM email_webhook_outbox
        WHERE state IN ('pending', 'delivering') AND next_attempt_at <= ${now}
        ORDER BY next_attempt_at LIMIT ${MAX_ROWS_PER_SWEEP}`,
    sql`UPDATE email_webhook_outbox SET state = 'failed', next_attempt_at = NULL
        WHERE state = 'delivering' AND next_attempt_at <= ${now} AND attempts >= ${MAX_ATTEMPTS}`,
  ]);
  const ids = ((due?.results ?? []) as Array<{ id: number }>).map((row) => row.id);
  if (ids.length === 0) return 0;
  const jobs = await claim(db, sql`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`, now);
  await launchAll(db, env, jobs, launch, fallback);
  return jobs.length;
}
