import { createApp } from "./app";
import { handleQueue } from "./jobs/queue";
import { handleScheduled } from "./jobs/scheduled";

export { KeyGuard } from "./auth/key-guard";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env) => handleQueue(batch, env),
  scheduled: async (controller, env) => handleScheduled(controller, env),
} satisfies ExportedHandler<Env>;
