import { defineRoute, jsonResponse } from "../../lib/openapi";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { AccountParamsSchema } from "../accounts/accounts.routes";
import { getOwnAccount } from "../accounts/accounts.service";
import { EventListSchema, EventQuerySchema } from "./event-stream.schemas";
import { listEvents } from "./event-stream.service";

export const listEventsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/events",
  tags: ["Accounts"],
  summary: "The event stream",
  description:
    "Every webhook event of the workspace, newest first, with the payload it carries and one delivery record per webhook it went to (URL, status code, duration, error); filters `event` and `inbox_id`. Events are recorded in the same transaction as the change that caused them, so the stream is complete even when a webhook is down. While the workspace is suspended nothing is sent: its events wait undispatched, their deliveries `pending`, and go out within a minute of its reinstatement (the minute sweep shares its 500 events a run between workspaces, so none waits behind another's backlog). Events and their deliveries are kept as long as request logs (`request_log_retention`); one still waiting for dispatch is kept until it has gone.",
  request: { params: AccountParamsSchema, query: EventQuerySchema },
  responses: { 200: jsonResponse(EventListSchema, "A page of events.") },
});

export const eventsRouter = createRouter().openapi(listEventsRoute, async (c) => {
  const db = c.var.ctx.db;
  const { id } = c.req.valid("param");
  const { limit, offset, event, inbox_id } = c.req.valid("query");
  await getOwnAccount(db, c.var.ctx.accountId, id);
  const { events, total } = await listEvents(db, { accountId: id, event, inboxId: inbox_id }, limit, offset);
  return c.json(standardList(events, total, { limit, offset }), 200);
});
