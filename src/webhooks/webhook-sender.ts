import { WorkerEntrypoint } from "cloudflare:workers";
import { createDb } from "../db/client";
import { countingEnv } from "../db/counting-d1";
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

  send(job: DeliveryJob): void {
    this.ctx.waitUntil(attemptDelivery(createDb(this.env.DB), this.env, job));
  }

  /** Attempts of one endpoint's email events (features/email-webhooks), the same way: see `launchAll`. */
  sendEmailEvents(jobs: EmailDeliveryJob[]): void {
    // What this invocation has no time for goes on to a fresh one: see `attemptEmailDeliveries`.
    const handOn = (rest: EmailDeliveryJob[]) => this.ctx.exports.WebhookSender.sendEmailEvents(rest);
    this.ctx.waitUntil(attemptEmailDeliveries(createDb(this.env.DB), this.env, jobs, { handOn }));
  }
}

/** The launcher of `dispatchEvents` for a handler's context. */
export const launcherOf = (ctx: ExecutionContext) => (job: DeliveryJob) =>
  ctx.exports.WebhookSender.send(job);
