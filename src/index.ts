import { createApp } from "./app";
import { handleEmail } from "./inbound/handler";
import { handleQueue } from "./jobs/queue";
import { handleScheduled } from "./jobs/scheduled";

export { KeyGuard } from "./auth/key-guard";
export { EnrollmentWorkflow } from "./features/automations/engine/enrollment-workflow";
export { WebhookSender } from "./webhooks/webhook-sender";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env, ctx) => handleQueue(batch, env, ctx),
  scheduled: async (controller, env, ctx) => handleScheduled(controller, env, ctx),
  email: async (message, env, ctx) => {
    await handleEmail(message, env, ctx);
  },
} satisfies ExportedHandler<Env>;
