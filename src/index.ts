// First: every entry below records delivery outcomes, which need their listeners registered.
import "./jobs/outcome-listeners";
import { createApp } from "./app";
import { countingEnv, countingEnvFor } from "./db/counting-d1";
import { handleEmail } from "./inbound/handler";
import { handleQueue } from "./jobs/queue";
import { handleScheduled } from "./jobs/scheduled";

export { KeyGuard } from "./auth/key-guard";
export { EnrollmentWorkflow } from "./features/automations/engine/enrollment-workflow";
export { TicketPresence } from "./features/presence/ticket-presence";
export { WebhookSender } from "./webhooks/webhook-sender";

const app = createApp();

// countingEnv is `env` itself unless D1_ROUND_TRIPS=count (the benchmarks' D1 round-trip counts).
export default {
  fetch: (request, env, ctx) => app.fetch(request, countingEnvFor(request, env), ctx),
  queue: (batch, env, ctx) => handleQueue(batch, countingEnv(env, "queue"), ctx),
  scheduled: async (controller, env, ctx) => handleScheduled(controller, countingEnv(env, "scheduled"), ctx),
  email: async (message, env, ctx) => {
    await handleEmail(message, countingEnv(env, "email"), ctx);
  },
} satisfies ExportedHandler<Env>;
