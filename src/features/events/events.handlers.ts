import { principalOf } from "../../auth/principal";
import { createDb } from "../../db/client";
import type { EventName } from "../../events/outbox";
import { defineRoute, jsonResponse } from "../../lib/openapi";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { iso, isoOrNull } from "../../lib/time";
import { AccountParamsSchema } from "../accounts/accounts.routes";
import { getOwnAccount } from "../accounts/accounts.service";
import { type EventRow, eventQueries } from "./events.repo";
import { EventListSchema, EventQuerySchema } from "./events.schemas";

export const listEventsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/events",
  tags: ["Accounts"],
  summary: "The event stream",
  description:
    "Every webhook event of the workspace, newest first, with the payload it carries; filters `event` and `inbox_id`. Events are recorded in the same transaction as the change that caused them, so the stream is complete even when a webhook is down.",
  request: { params: AccountParamsSchema, query: EventQuerySchema },
  responses: { 200: jsonResponse(EventListSchema, "A page of events.") },
});

const toEvent = (row: EventRow) => ({
  id: row.id,
  event: row.event as EventName,
  inbox_id: row.inboxId,
  data: JSON.parse(row.data) as Record<string, unknown>,
  created_at: iso(row.createdAt),
  dispatched_at: isoOrNull(row.dispatchedAt),
});

export const eventsRouter = createRouter().openapi(listEventsRoute, async (c) => {
  const db = createDb(c.env.DB);
  const { id } = c.req.valid("param");
  const { limit, offset, event, inbox_id } = c.req.valid("query");
  await getOwnAccount(db, principalOf(c).accountId, id);
  const { page, total } = eventQueries(db, { accountId: id, event, inboxId: inbox_id }, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return c.json(standardList(rows.map(toEvent), totals[0]?.total ?? 0, { limit, offset }), 200);
});
