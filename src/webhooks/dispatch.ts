import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../db/client";
import { shardOfEnv } from "../db/shards";
import { environmentOf } from "../env";
import { decryptSecret } from "../lib/crypto";
import { describeError, log } from "../lib/logger";
import { iso } from "../lib/time";
import { mayActSql } from "../lib/workspace-gate";
import { type DeliveryResult, deliver, type OutgoingEvent } from "./deliver";

export type DispatchEnv = Pick<Env, "ENCRYPTION_KEY" | "ENVIRONMENT">;

interface ClaimedDelivery {
  id: string;
  event_id: string;
  url: string;
  secret: string | null;
}

interface EventRow {
  id: string;
  event: string;
  data: string;
  created_at: number;
}

/**
 * The envelope's bytes: `id`, `event`, `timestamp`, `data` (product.md adds `id`). `data` is the
 * JSON stored with the event, spliced in as is rather than parsed and written again.
 */
function outgoing(row: EventRow): OutgoingEvent {
  const head = JSON.stringify({ id: row.id, event: row.event, timestamp: iso(row.created_at) });
  return { id: row.id, name: row.event, body: `${head.slice(0, -1)},"data":${row.data}}` };
}

/**
 * Claims every pending delivery of `eventIds` (pending → sending), marks the events dispatched and
 * reads them, as one batch. A delivery is claimed once only, so a redelivered Queue message, or
 * the sweep racing the Queue, finds nothing left to attempt. A suspended workspace's events are
 * neither claimed nor marked: they hold, and the minute sweep dispatches them once it is reinstated.
 */
export function claimStatements(eventIds: string[], now: number) {
  const ids = JSON.stringify(eventIds);
  return [
    sql`UPDATE webhook_deliveries SET status = 'sending', attempted_at = ${now}
        WHERE status = 'pending' AND event_id IN (SELECT value FROM json_each(${ids}))
          AND EXISTS (SELECT 1 FROM events AS source
            WHERE source.id = webhook_deliveries.event_id AND ${mayActSql(sql`source.account_id`)})
        RETURNING id, event_id, url, secret`,
    sql`UPDATE events SET dispatched_at = ${now}
        WHERE dispatched_at IS NULL AND id IN (SELECT value FROM json_each(${ids}))
          AND ${mayActSql(sql`events.account_id`)}`,
    sql`SELECT id, event, data, created_at FROM events WHERE id IN (SELECT value FROM json_each(${ids}))`,
  ];
}

async function claim(db: Db, eventIds: string[], now: number) {
  const [claimed, , rows] = await runBatch(db, claimStatements(eventIds, now));
  return {
    deliveries: (claimed?.results ?? []) as ClaimedDelivery[],
    events: new Map(((rows?.results ?? []) as EventRow[]).map((row) => [row.id, outgoing(row)])),
  };
}

/** The outcome of the attempt; the secret copy is dropped, it is not needed any more. */
function recordResult(db: Db, id: string, result: DeliveryResult) {
  return db.run(sql`UPDATE webhook_deliveries
    SET status = ${result.status}, status_code = ${result.statusCode},
        duration_ms = ${result.durationMs}, error = ${result.error}, secret = NULL
    WHERE id = ${id} AND status = 'sending'`);
}

/** A claimed delivery with the event it carries: what one attempt needs, and nothing more. */
export interface DeliveryJob {
  delivery: ClaimedDelivery;
  event: OutgoingEvent;
}

/** The one attempt of a claimed delivery, and its outcome recorded. */
export async function attemptDelivery(db: Db, env: DispatchEnv, { delivery, event }: DeliveryJob) {
  let result: DeliveryResult;
  try {
    if (!delivery.secret) throw new Error("the delivery has no secret");
    const secret = await decryptSecret(env.ENCRYPTION_KEY, delivery.secret);
    result = await deliver({ url: delivery.url, secret }, event, environmentOf(env));
  } catch (error) {
    // A secret that no longer decrypts (a rotated ENCRYPTION_KEY) fails the delivery, visibly.
    result = { status: "failed", statusCode: null, durationMs: 0, error: `not sent: ${String(error)}` };
  }
  await recordResult(db, delivery.id, result);
  if (result.status === "failed") {
    log.warn("webhook.failed", { delivery: delivery.id, event: event.id, status: result.statusCode });
  }
}

/**
 * Starts one attempt somewhere it can run on its own (the WebhookSender entrypoint: an invocation
 * per delivery). Resolves once it has started, not when it ends.
 */
export type Launch = (job: DeliveryJob, shard: string) => Promise<void>;

/**
 * Dispatches committed events to their webhooks: claims their deliveries, then launches each
 * attempt as an invocation of its own, so that a receiver that never answers holds up neither the
 * event's other webhooks nor the next events (a Queue batch, or the sweep, ends as soon as its
 * attempts have started). An attempt that cannot be launched runs in `fallback` (the caller's
 * `waitUntil`) instead: it is claimed, so it must be attempted here or never.
 */
export async function dispatchEvents(
  db: Db,
  env: DispatchEnv,
  eventIds: string[],
  now: number,
  launch: Launch,
  fallback: (attempt: Promise<void>) => void,
): Promise<number> {
  if (eventIds.length === 0) return 0;
  const { deliveries, events } = await claim(db, eventIds, now);
  const jobs = deliveries.flatMap((delivery) => {
    const event = events.get(delivery.event_id);
    return event ? [{ delivery, event }] : [];
  });
  await Promise.all(
    jobs.map((job) =>
      launch(job, shardOfEnv(env)).catch((error: unknown) => {
        log.warn("webhook.launch_failed", { delivery: job.delivery.id, ...describeError(error) });
        fallback(attemptDelivery(db, env, job));
      }),
    ),
  );
  return jobs.length;
}
