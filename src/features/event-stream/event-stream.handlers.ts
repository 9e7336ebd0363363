import { defineRoute, jsonResponse } from "../../lib/openapi";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { iso, isoOrNull } from "../../lib/time";
import type { EventName } from "../../webhooks/outbox";
import { AccountParamsSchema } from "../accounts/accounts.routes";
import { getOwnAccount } from "../accounts/accounts.service";
import { type DeliveryRow, deliveriesOf, type EventRow, eventQueries } from "./event-stream.repo";
import { EventListSchema, EventQuerySchema } from "./event-stream.schemas";

export const listEventsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/events",
  tags: ["Accounts"],
  summary: "The event stream",
  description:
    "Every webhook event of the workspace, newest first, with the payload it carries and one delivery record per webhook it went to (URL, status code, duration, error); filters `event` and `inbox_id`. Events are recorded in the same transaction as the change that caused them, so the stream is complete even when a webhook is down. Events and their deliveries are kept as long as request logs (`request_log_retention`).",
  request: { params: AccountParamsSchema, query: EventQuerySchema },
  responses: { 200: jsonResponse(EventListSchema, "A page of events.") },
});

const toDelivery = (row: DeliveryRow) => ({
  id: row.id,
  url: row.url,
  status: row.status as "pending" | "sending" | "succeeded" | "failed",
  status_code: row.statusCode,
  duration_ms: row.durationMs,
  error: row.error,
  attempted_at: isoOrNull(row.attemptedAt),
});

const toEvent = (row: EventRow, deliveries: DeliveryRow[]) => ({
  id: row.id,
  event: row.event as EventName,
  inbox_id: row.inboxId,
  data: JSON.parse(row.data) as Record<string, unknown>,
  created_at: iso(row.createdAt),
  dispatched_at: isoOrNull(row.dispatchedAt),
  deliveries: deliveries
    .filter((d) => d.eventId === row.id)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(toDelivery),
});

export const eventsRouter = createRouter().openapi(listEventsRoute, async (c) => {
  const db = c.var.ctx.db;
  const { id } = c.req.valid("param");
  const { limit, offset, event, inbox_id } = c.req.valid("query");
  await getOwnAccount(db, c.var.ctx.accountId, id);
  const { page, total } = eventQueries(db, { accountId: id, event, inboxId: inbox_id }, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  const deliveries =
    rows.length > 0
      ? await deliveriesOf(
          db,
          rows.map((row) => row.id),
        )
      : [];
  return c.json(
    standardList(
      rows.map((row) => toEvent(row, deliveries)),
      totals[0]?.total ?? 0,
      { limit, offset },
    ),
    200,
  );
});
