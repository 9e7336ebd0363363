import { WorkerEntrypoint } from "cloudflare:workers";
import { createDb } from "../db/client";
import { countingEnv } from "../db/counting-d1";
import { envFor } from "../db/shards";
import { attemptDelivery, type DeliveryJob } from "./dispatch";
import type { EmailDeliveryJob } from "./email-delivery-job";
import { attemptEmailDeliveries } from "./email-sender-run";

/**
 * Runs each webhook attempt as an invocation of its own, reached through `ctx.exports` (a loopback
 * binding, never exposed over HTTP). The call returns at once and the attempt goes on in this
 * invocation's `waitUntil`, so the dispatcher is never held by a receiver, and each attempt has
 * its own connection and subrequest limits rather than sharing a Queue batch's.
 */
export class WebhookSender extends WorkerEntrypoint<Env> {
  constructor(ctx: ExecutionContext, env: Env) {
    // `env` itself unless D1_ROUND_TRIPS=count (the benchmarks' D1 round-trip counts).
    super(ctx, countingEnv(env, "webhook_sender"));
  }

  /** One attempt of a delivery `shard` holds (its launcher's: the workspace's shard). */
  send(job: DeliveryJob, shard: string): void {
    const env = envFor(this.env, shard);
    this.ctx.waitUntil(attemptDelivery(createDb(env.DB), env, job));
  }

  /** Attempts of one endpoint's email events (features/email-webhooks), the same way: see `launchAll`. */
  sendEmailEvents(jobs: EmailDeliveryJob[], shard: string): void {
    const env = envFor(this.env, shard);
    // What this invocation has no time for goes on to a fresh one: see `attemptEmailDeliveries`.
    const handOn = (rest: EmailDeliveryJob[]) => this.ctx.exports.WebhookSender.sendEmailEvents(rest, shard);
    this.ctx.waitUntil(attemptEmailDeliveries(createDb(env.DB), env, jobs, { handOn }));
  }
}

/** The launcher of `dispatchEvents` for a handler's context. */
export const launcherOf = (ctx: ExecutionContext) => (job: DeliveryJob, shard: string) =>
  ctx.exports.WebhookSender.send(job, shard);
