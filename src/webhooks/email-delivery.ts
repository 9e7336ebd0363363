import { type SQL, sql } from "drizzle-orm";
import { type Db, runBatch } from "../db/client";
import { shardOfEnv } from "../db/shards";
import { describeError, log } from "../lib/logger";
import { mayActSql } from "../lib/workspace-gate";
import type { DispatchEnv } from "./dispatch";
import { CLAIM_LEASE_MS, type EmailDeliveryJob } from "./email-delivery-job";
import { MAX_ATTEMPTS } from "./email-events";
import { attemptEmailDeliveries, EVENTS_PER_SENDER } from "./email-sender-run";
import { fairDueRows } from "./fair-share";

/** The most rows one minute's sweep claims, shared between the endpoints with due rows. */
export const MAX_ROWS_PER_SWEEP = 500;

interface ClaimedRow {
  id: number;
  endpoint_id: string;
  event_id: string;
  event: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
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
 * only: concurrent sweeps, or a sweep racing the announcement, find nothing left to send. A
 * suspended workspace's rows are not claimed: they hold, due, uncounted, and the first claim after
 * its reinstatement takes them (the gate is this update's own condition, not a read of its own).
 */
async function claim(db: Db, selector: SQL, now: number): Promise<EmailDeliveryJob[]> {
  const [claimed, endpoints] = await runBatch(db, [
    sql`UPDATE email_webhook_outbox
        SET state = 'delivering', attempts = attempts + 1, next_attempt_at = ${now + CLAIM_LEASE_MS}
        WHERE ${selector} AND state IN ('pending', 'delivering') AND next_attempt_at <= ${now}
          AND attempts < ${MAX_ATTEMPTS} AND ${mayActSql(sql`email_webhook_outbox.account_id`)}
        RETURNING id, endpoint_id, event_id, event, body, attempts, next_attempt_at`,
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
        leaseUntil: row.next_attempt_at,
      },
    ];
  });
}

/**
 * Starts attempting some claimed rows where they run on their own (the WebhookSender entrypoint),
 * on the shard that holds them; resolves once started.
 */
export type EmailLaunch = (jobs: EmailDeliveryJob[], shard: string) => Promise<void>;
export type Fallback = (attempts: Promise<void>) => void;

/**
 * The launcher through a context's WebhookSender (`ctx.exports`). Here rather than beside the
 * class, so that request handlers reach it without importing `cloudflare:workers`.
 */
export const emailLauncherOf = (ctx: ExecutionContext) => (jobs: EmailDeliveryJob[], shard: string) =>
  ctx.exports.WebhookSender.sendEmailEvents(jobs, shard);

/** The jobs in runs of at most EVENTS_PER_SENDER, each of one endpoint. */
function chunksByEndpoint(jobs: EmailDeliveryJob[]): EmailDeliveryJob[][] {
  const byEndpoint = new Map<string, EmailDeliveryJob[]>();
  for (const job of jobs) byEndpoint.set(job.endpointId, [...(byEndpoint.get(job.endpointId) ?? []), job]);
  return [...byEndpoint.values()].flatMap((list) =>
    Array.from({ length: Math.ceil(list.length / EVENTS_PER_SENDER) }, (_, i) =>
      list.slice(i * EVENTS_PER_SENDER, (i + 1) * EVENTS_PER_SENDER),
    ),
  );
}

/**
 * Launches the claimed jobs a chunk per sender invocation rather than one each: a campaign's
 * thousand events are twenty invocations, a hundred requests at once to the receiver and a few D1
 * round trips per fifty outcomes, where one invocation per event took a thousand connections and
 * a round trip per outcome and slowed the campaign that made them. A chunk holds one endpoint's
 * events only, so a receiver that never answers delays its own events and no one else's.
 */
async function launchAll(
  db: Db,
  env: DispatchEnv,
  jobs: EmailDeliveryJob[],
  launch: EmailLaunch,
  fallback: Fallback,
) {
  await Promise.all(
    chunksByEndpoint(jobs).map((chunk) =>
      launch(chunk, shardOfEnv(env)).catch((error: unknown) => {
        // Claimed, so they are attempted here or only after the lease lapses.
        log.warn("email_webhook.launch_failed", {
          event_ids: chunk.map((job) => job.eventId).join(","),
          ...describeError(error),
        });
        fallback(attemptEmailDeliveries(db, env, chunk));
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
 * The rows the minute sweep claims: rows due for a retry, rows whose announcement was lost, and
 * rows whose claim lapsed, shared fairly between endpoints (fair-share.ts), so that one endpoint's
 * backlog never delays another's retries; held endpoints (a suspended workspace's) take no share.
 */
export const dueRowsStatement = (now: number) =>
  fairDueRows({
    table: "email_webhook_outbox",
    group: "endpoint_id",
    open: sql`next_attempt_at IS NOT NULL`,
    due: sql`next_attempt_at <= ${now}`,
    order: "next_attempt_at",
    mayGo: (endpointId) =>
      sql`EXISTS (SELECT 1 FROM webhook_endpoints AS owner
        WHERE owner.id = ${endpointId} AND ${mayActSql(sql`owner.account_id`)})`,
    budget: MAX_ROWS_PER_SWEEP,
  });

/**
 * The minute sweep: the due rows (`dueRowsStatement`), claimed and launched. Those at their last
 * attempt whose claim lapsed are closed as failed first.
 */
export async function sweepEmailWebhooks(
  db: Db,
  env: DispatchEnv,
  now: number,
  launch: EmailLaunch,
  fallback: Fallback,
): Promise<number> {
  const [, due] = await runBatch(db, [
    sql`UPDATE email_webhook_outbox SET state = 'failed', next_attempt_at = NULL
        WHERE state = 'delivering' AND next_attempt_at <= ${now} AND attempts >= ${MAX_ATTEMPTS}`,
    dueRowsStatement(now),
  ]);
  const ids = ((due?.results ?? []) as Array<{ id: number }>).map((row) => row.id);
  if (ids.length === 0) return 0;
  const jobs = await claim(db, sql`id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`, now);
  await launchAll(db, env, jobs, launch, fallback);
  return jobs.length;
}
