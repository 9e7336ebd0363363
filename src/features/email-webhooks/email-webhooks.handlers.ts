import type { RouteHandler } from "@hono/zod-openapi";
import { readsSecrets } from "../../auth/secret-readers";
import type { AppEnv } from "../../env";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createEmailWebhookRoute,
  deleteEmailWebhookRoute,
  getEmailWebhookRoute,
  listEmailWebhookDeliveriesRoute,
  listEmailWebhooksRoute,
  resendEmailWebhookDeliveryRoute,
  testEmailWebhookRoute,
  updateEmailWebhookRoute,
} from "./email-webhooks.routes";
import {
  createEmailWebhook,
  deleteEmailWebhook,
  getEmailWebhook,
  listEmailWebhookAttempts,
  listEmailWebhooks,
  resendEmailWebhookDelivery,
  sendEmailWebhookTest,
  updateEmailWebhook,
  withoutSecret,
} from "./email-webhooks.service";
import { executionOf } from "./execution";

const listEndpoints: RouteHandler<typeof listEmailWebhooksRoute, AppEnv> = async (c) => {
  const page = c.req.valid("query");
  const { data, total } = await listEmailWebhooks(c.var.ctx, page);
  const admin = readsSecrets(c, "admin");
  const shown = data.map((endpoint) => (admin ? endpoint : withoutSecret(endpoint)));
  return c.json(standardList(shown, total, page), 200);
};

const createEndpoint: RouteHandler<typeof createEmailWebhookRoute, AppEnv> = async (c) =>
  c.json(await createEmailWebhook(c.var.ctx, c.req.valid("json")), 201);

const getEndpoint: RouteHandler<typeof getEmailWebhookRoute, AppEnv> = async (c) => {
  const endpoint = await getEmailWebhook(c.var.ctx, c.req.valid("param").id);
  return c.json(readsSecrets(c, "admin") ? endpoint : withoutSecret(endpoint), 200);
};

const patchEndpoint: RouteHandler<typeof updateEmailWebhookRoute, AppEnv> = async (c) =>
  c.json(await updateEmailWebhook(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200);

const removeEndpoint: RouteHandler<typeof deleteEmailWebhookRoute, AppEnv> = async (c) => {
  const { id } = c.req.valid("param");
  await deleteEmailWebhook(c.var.ctx, id);
  return c.json({ id, deleted: true as const }, 200);
};

const sendTestEvent: RouteHandler<typeof testEmailWebhookRoute, AppEnv> = async (c) =>
  c.json(await sendEmailWebhookTest(c.var.ctx, c.req.valid("param").id, executionOf(c)), 202);

const listDeliveries: RouteHandler<typeof listEmailWebhookDeliveriesRoute, AppEnv> = async (c) => {
  const page = c.req.valid("query");
  const { data, total } = await listEmailWebhookAttempts(c.var.ctx, c.req.valid("param").id, page);
  return c.json(standardList(data, total, page), 200);
};

const resendDelivery: RouteHandler<typeof resendEmailWebhookDeliveryRoute, AppEnv> = async (c) => {
  const { id, delivery_id } = c.req.valid("param");
  return c.json(await resendEmailWebhookDelivery(c.var.ctx, id, delivery_id, executionOf(c)), 202);
};

export const emailWebhooksRouter = createRouter()
  .openapi(listEmailWebhooksRoute, listEndpoints)
  .openapi(createEmailWebhookRoute, createEndpoint)
  .openapi(getEmailWebhookRoute, getEndpoint)
  .openapi(updateEmailWebhookRoute, patchEndpoint)
  .openapi(deleteEmailWebhookRoute, removeEndpoint)
  .openapi(testEmailWebhookRoute, sendTestEvent)
  .openapi(listEmailWebhookDeliveriesRoute, listDeliveries)
  .openapi(resendEmailWebhookDeliveryRoute, resendDelivery);
