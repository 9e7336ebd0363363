import { createDb } from "../../db/client";
import { describeError, log } from "../../lib/logger";
import type { DispatchEnv } from "../../webhooks/dispatch";
import { deliverEmailEvents, deliverEmailEventsSince, emailLauncherOf } from "../../webhooks/email-delivery";

/**
 * Starts delivering committed email events at once, after the response (the context's
 * `waitUntil`). A failure is logged, not thrown: the events are in the outbox, and the minute sweep
 * delivers whatever this did not claim.
 */
export function announceEmailEvents(
  d1: D1Database,
  env: DispatchEnv,
  eventIds: string[],
  now: number,
  ctx: ExecutionContext,
): void {
  if (eventIds.length === 0) return;
  const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
  const work = deliverEmailEvents(createDb(d1), env, eventIds, now, emailLauncherOf(ctx), fallback).catch(
    (error: unknown) =>
      log.warn("email_webhook.announce_failed", { events: eventIds.join(","), ...describeError(error) }),
  );
  ctx.waitUntil(work);
}

/**
 * Starts delivering, after commit, the events facts wrote since `mark` (`eventIdMark()`, taken
 * before their batches). Failures are logged: the minute sweep delivers what this did not claim.
 */
export function announceEmailEventsSince(
  d1: D1Database,
  env: DispatchEnv,
  mark: string,
  ctx: ExecutionContext,
): void {
  const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
  const work = deliverEmailEventsSince(
    createDb(d1),
    env,
    mark,
    Date.now(),
    emailLauncherOf(ctx),
    fallback,
  ).catch((error: unknown) =>
    log.warn("email_webhook.announce_failed", { since: mark, ...describeError(error) }),
  );
  ctx.waitUntil(work);
}
