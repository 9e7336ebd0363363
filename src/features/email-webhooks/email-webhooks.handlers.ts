import type { RouteHandler } from "@hono/zod-openapi";
import { runBatch } from "../../db/client";
import { type AppEnv, environmentOf } from "../../env";
import { decryptSecret, encryptSecret } from "../../lib/crypto";
import { notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { standardList } from "../../lib/pagination";
import { createRouter, validationError } from "../../lib/router";
import { iso } from "../../lib/time";
import type { EmailEventName } from "../../webhooks/email-events";
import { webhookUrlProblem } from "../../webhooks/url-guard";
import { newWebhookSecret } from "../inboxes/webhooks";
import { announceEmailEvents } from "./announce";
import {
  type AttemptRow,
  attemptQueries,
  deleteEndpoint,
  type EndpointRow,
  endpointQueries,
  endpointQuery,
  findEndpoint,
  insertEndpoint,
  updateEndpoint,
} from "./email-webhooks.repo";
import {
  createEmailWebhookRoute,
  deleteEmailWebhookRoute,
  getEmailWebhookRoute,
  listEmailWebhookDeliveriesRoute,
  listEmailWebhooksRoute,
  testEmailWebhookRoute,
  updateEmailWebhookRoute,
} from "./email-webhooks.routes";
import { testEventStatements } from "./outbox";

async function toEndpoint(row: EndpointRow, encryptionKey: string) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as EmailEventName[],
    enabled: row.enabled,
    secret: await decryptSecret(encryptionKey, row.secret),
    disabled_reason: row.disabledReason,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

function toAttempt(row: AttemptRow) {
  return {
    event_id: row.eventId,
    event: row.event,
    attempt: row.attempt,
    status_code: row.statusCode,
    duration_ms: row.durationMs,
    error: row.error,
    created_at: iso(row.createdAt),
    payload: JSON.parse(row.body) as Record<string, unknown>,
  };
}

/** The same URL rules as inbox webhooks, as a 400 naming the field. */
function checkUrl(url: string, env: Env) {
  const problem = webhookUrlProblem(url, environmentOf(env));
  if (problem) throw validationError([{ path: ["url"], message: problem }], "json");
}

const endpointNotFound = (id: string) => notFound(`Webhook ${id}`);

const listEndpoints: RouteHandler<typeof listEmailWebhooksRoute, AppEnv> = async (c) => {
  const { db, accountId, env } = c.var.ctx;
  const { limit, offset } = c.req.valid("query");
  const { page, total } = endpointQueries(db, accountId, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  const data = await Promise.all(rows.map((row) => toEndpoint(row, env.ENCRYPTION_KEY)));
  return c.json(standardList(data, totals[0]?.total ?? 0, { limit, offset }), 200);
};

const createEndpoint: RouteHandler<typeof createEmailWebhookRoute, AppEnv> = async (c) => {
  const { db, accountId, env, now } = c.var.ctx;
  const body = c.req.valid("json");
  checkUrl(body.url, env);
  const row = await insertEndpoint(db, {
    id: newId("whk"),
    accountId,
    url: body.url,
    events: JSON.stringify(body.events),
    enabled: body.enabled,
    secret: await encryptSecret(env.ENCRYPTION_KEY, newWebhookSecret()),
    createdAt: now,
    updatedAt: now,
  });
  if (!row) throw new Error("the insert returned no row");
  return c.json(await toEndpoint(row, env.ENCRYPTION_KEY), 201);
};

const getEndpoint: RouteHandler<typeof getEmailWebhookRoute, AppEnv> = async (c) => {
  const { db, accountId, env } = c.var.ctx;
  const { id } = c.req.valid("param");
  const row = await findEndpoint(db, accountId, id);
  if (!row) throw endpointNotFound(id);
  return c.json(await toEndpoint(row, env.ENCRYPTION_KEY), 200);
};

const patchEndpoint: RouteHandler<typeof updateEmailWebhookRoute, AppEnv> = async (c) => {
  const { db, accountId, env, now } = c.var.ctx;
  const { id } = c.req.valid("param");
  const body = c.req.valid("json");
  if (body.url !== undefined) checkUrl(body.url, env);
  const row = await updateEndpoint(db, accountId, id, {
    url: body.url,
    events: body.events ? JSON.stringify(body.events) : undefined,
    // Whoever sets `enabled` decides: the service's reason, and its failing streak, are over.
    ...(body.enabled === undefined
      ? {}
      : { enabled: body.enabled, disabledReason: null, failingSince: null }),
    updatedAt: now,
  });
  if (!row) throw endpointNotFound(id);
  return c.json(await toEndpoint(row, env.ENCRYPTION_KEY), 200);
};

const removeEndpoint: RouteHandler<typeof deleteEmailWebhookRoute, AppEnv> = async (c) => {
  const { db, accountId } = c.var.ctx;
  const { id } = c.req.valid("param");
  if (!(await deleteEndpoint(db, accountId, id))) throw endpointNotFound(id);
  return c.json({ id, deleted: true as const }, 200);
};

const sendTestEvent: RouteHandler<typeof testEmailWebhookRoute, AppEnv> = async (c) => {
  const { db, accountId, env, now } = c.var.ctx;
  const { id } = c.req.valid("param");
  const recorded = testEventStatements(accountId, id, now);
  const [inserted] = await runBatch(db, recorded.statements);
  // The insert selects the endpoint within the account: nothing written means no such endpoint.
  if (!inserted?.meta.changes) throw endpointNotFound(id);
  // Hono types its context narrower than workerd's; it is the invocation's own, with `exports`.
  announceEmailEvents(env.DB, env, recorded.eventIds, now, c.executionCtx as unknown as ExecutionContext);
  return c.json({ event_id: recorded.eventIds[0] ?? "", event: "webhook.test" as const }, 202);
};

const listDeliveries: RouteHandler<typeof listEmailWebhookDeliveriesRoute, AppEnv> = async (c) => {
  const { db, accountId } = c.var.ctx;
  const { id } = c.req.valid("param");
  const { limit, offset } = c.req.valid("query");
  const { page, total } = attemptQueries(db, accountId, id, limit, offset);
  const [endpoints, rows, totals] = await db.batch([endpointQuery(db, accountId, id), page, total]);
  if (endpoints.length === 0) throw endpointNotFound(id);
  return c.json(standardList(rows.map(toAttempt), totals[0]?.total ?? 0, { limit, offset }), 200);
};

export const emailWebhooksRouter = createRouter()
  .openapi(listEmailWebhooksRoute, listEndpoints)
  .openapi(createEmailWebhookRoute, createEndpoint)
  .openapi(getEmailWebhookRoute, getEndpoint)
  .openapi(updateEmailWebhookRoute, patchEndpoint)
  .openapi(deleteEmailWebhookRoute, removeEndpoint)
  .openapi(testEmailWebhookRoute, sendTestEvent)
  .openapi(listEmailWebhookDeliveriesRoute, listDeliveries);
