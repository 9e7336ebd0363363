import { runBatch } from "../../db/client";
import { environmentOf } from "../../env";
import { decryptSecret, encryptSecret } from "../../lib/crypto";
import { AppError, conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { percentage } from "../../lib/plans";
import type { RequestContext } from "../../lib/request-context";
import { validationError } from "../../lib/router";
import { iso } from "../../lib/time";
import type { EmailEventName } from "../../webhooks/email-events";
import { webhookUrlProblem } from "../../webhooks/url-guard";
import { newWebhookSecret } from "../inboxes/webhooks";
import { announceEmailEvents } from "./announce";
import {
  type AttemptRow,
  attemptQueries,
  countEndpoints,
  deleteEndpoint,
  type EndpointRow,
  endpointQueries,
  endpointQuery,
  findEndpoint,
  insertEndpointIfRoom,
  updateEndpoint,
} from "./email-webhooks.repo";
import {
  type CreateEmailWebhookInput,
  MAX_EMAIL_WEBHOOK_ENDPOINTS,
  type UpdateEmailWebhookInput,
} from "./email-webhooks.schemas";
import { testEventStatements } from "./outbox";
import { resendStatements } from "./resend";

/**
 * The rules of email event webhooks, shared by the API's handlers and the dashboard's pages so that
 * both check, store and send the same way. Every query names the account.
 */

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

export type EmailWebhook = Awaited<ReturnType<typeof toEndpoint>>;

/** The endpoint as a key below admin sees it: everything but the secret. */
export const withoutSecret = (endpoint: EmailWebhook) => ({ ...endpoint, secret: null });

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

export type EmailWebhookAttempt = ReturnType<typeof toAttempt>;

/** The same URL rules as inbox webhooks, as a 400 naming the field. */
function checkUrl(url: string, env: Env) {
  const problem = webhookUrlProblem(url, environmentOf(env));
  if (problem) throw validationError([{ path: ["url"], message: problem }], "json");
}

const endpointNotFound = (id: string) => notFound(`Webhook ${id}`);

export async function listEmailWebhooks(ctx: RequestContext, page: { limit: number; offset: number }) {
  const { page: rowsQuery, total } = endpointQueries(ctx.db, ctx.accountId, page.limit, page.offset);
  const [rows, totals] = await ctx.db.batch([rowsQuery, total]);
  const data = await Promise.all(rows.map((row) => toEndpoint(row, ctx.env.ENCRYPTION_KEY)));
  return { data, total: totals[0]?.total ?? 0 };
}

/** The 429 of the endpoint limit, shaped as the plan quotas' and the invitation limits'. */
function endpointLimitReached(current: number) {
  const limit = MAX_EMAIL_WEBHOOK_ENDPOINTS;
  return new AppError(
    429,
    "limit_exceeded",
    "Limit exceeded",
    `The workspace has ${current} email webhook endpoints, the most allowed (${limit}, disabled ones included); delete one to add another.`,
    { quota: "webhook_endpoints", current, limit, percentage: percentage(current, limit) },
  );
}

export async function createEmailWebhook(ctx: RequestContext, body: CreateEmailWebhookInput) {
  const { db, accountId, env, now } = ctx;
  checkUrl(body.url, env);
  const row: EndpointRow = {
    id: newId("whk"),
    accountId,
    url: body.url,
    events: JSON.stringify(body.events),
    enabled: body.enabled,
    secret: await encryptSecret(env.ENCRYPTION_KEY, newWebhookSecret()),
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertEndpointIfRoom(db, row, MAX_EMAIL_WEBHOOK_ENDPOINTS))) {
    throw endpointLimitReached(await countEndpoints(db, accountId));
  }
  return toEndpoint(row, env.ENCRYPTION_KEY);
}

export async function getEmailWebhook(ctx: RequestContext, id: string) {
  const row = await findEndpoint(ctx.db, ctx.accountId, id);
  if (!row) throw endpointNotFound(id);
  return toEndpoint(row, ctx.env.ENCRYPTION_KEY);
}

export async function updateEmailWebhook(ctx: RequestContext, id: string, body: UpdateEmailWebhookInput) {
  const { db, accountId, env, now } = ctx;
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
  return toEndpoint(row, env.ENCRYPTION_KEY);
}

export async function deleteEmailWebhook(ctx: RequestContext, id: string) {
  if (!(await deleteEndpoint(ctx.db, ctx.accountId, id))) throw endpointNotFound(id);
}

/**
 * Queues a `webhook.test` for the endpoint and starts delivering it once committed. `execution` is
 * the invocation's own context (it carries `exports`, which the delivery is launched through).
 */
export async function sendEmailWebhookTest(ctx: RequestContext, id: string, execution: ExecutionContext) {
  const { db, accountId, env, now } = ctx;
  const recorded = testEventStatements(accountId, id, now);
  const [inserted] = await runBatch(db, recorded.statements);
  // The insert selects the endpoint within the account: nothing written means no such endpoint.
  if (!inserted?.meta.changes) throw endpointNotFound(id);
  announceEmailEvents(env.DB, env, recorded.eventIds, now, execution);
  return { event_id: recorded.eventIds[0] ?? "", event: "webhook.test" as const };
}

export async function listEmailWebhookAttempts(
  ctx: RequestContext,
  id: string,
  page: { limit: number; offset: number },
) {
  const { db, accountId } = ctx;
  const { page: rowsQuery, total } = attemptQueries(db, accountId, id, page.limit, page.offset);
  const [endpoints, rows, totals] = await db.batch([endpointQuery(db, accountId, id), rowsQuery, total]);
  if (endpoints.length === 0) throw endpointNotFound(id);
  return { data: rows.map(toAttempt), total: totals[0]?.total ?? 0 };
}

/**
 * Sends one event again to the endpoint: a new outbox row with the event's id and exact body,
 * delivered (and retried) by the normal path. `deliveryId` is the `event_id` of a delivery listed
 * for this endpoint; another endpoint's or workspace's is 404.
 */
export async function resendEmailWebhookDelivery(
  ctx: RequestContext,
  id: string,
  deliveryId: string,
  execution: ExecutionContext,
) {
  const { db, accountId, env, now } = ctx;
  const [endpoint, inserted] = await runBatch(db, resendStatements(accountId, id, deliveryId, now));
  const found = (endpoint?.results ?? []) as Array<{ enabled: number }>;
  if (found.length === 0) throw endpointNotFound(id);
  if (found[0]?.enabled !== 1) {
    throw conflict(
      "webhook_disabled",
      "Webhook disabled",
      `Webhook ${id} is disabled, so it takes no events. Enable it, then resend.`,
    );
  }
  const copied = (inserted?.results ?? []) as Array<{ event: string }>;
  if (!copied[0]) throw notFound(`Delivery ${deliveryId}`);
  announceEmailEvents(env.DB, env, [deliveryId], now, execution);
  return { event_id: deliveryId, event: copied[0].event };
}
