import { noneMatch, parseEntityTags } from "../../lib/entity-tags";
import { countedList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { iso } from "../../lib/time";
import { slaFilterOf } from "../sla/sla-filter";
import { addTicketTag, manageTicket, removeTicketTag } from "./manage.service";
import type { TicketContext } from "./ticket-context";
import { ticketTagsQuery } from "./ticket-tags.repo";
import { updateTicket } from "./ticket-update";
import { etagOf, guardFor } from "./ticket-version";
import { toTicket } from "./tickets.dto";
import {
  addTicketTagRoute,
  createTicketRoute,
  deleteTicketRoute,
  getTicketRoute,
  listTicketsRoute,
  listTicketTagsRoute,
  manageTicketRoute,
  removeTicketTagRoute,
  updateTicketRoute,
} from "./tickets.routes";
import { createTicket, deleteTicket, listTickets, ticketOf } from "./tickets.service";

async function tagList(ctx: TicketContext, id: string) {
  await ticketOf(ctx, id);
  const rows = await ticketTagsQuery(ctx.db, ctx.accountId, id);
  return countedList(
    rows.map(({ tag }) => ({
      id: tag.id,
      inbox_id: tag.inboxId,
      name: tag.name,
      color: tag.color,
      created_at: iso(tag.createdAt),
    })),
  );
}

export const ticketsRouter = createRouter()
  .openapi(createTicketRoute, async (c) => {
    const idempotencyKey = c.req.valid("header")["idempotency-key"];
    return c.json(await createTicket(c.var.ctx, c.req.valid("json"), { idempotencyKey }), 201);
  })
  .openapi(listTicketsRoute, async (c) => {
    const {
      limit,
      offset,
      status,
      priority,
      inbox_id,
      customer_id,
      assignee_id,
      tag,
      q,
      updated_after,
      ...sla
    } = c.req.valid("query");
    const filter = {
      status,
      priority,
      inboxId: inbox_id,
      customerId: customer_id,
      assigneeId: assignee_id === "none" ? null : assignee_id,
      tag,
      q,
      updatedAfter: updated_after ? Date.parse(updated_after) : undefined,
      ...slaFilterOf(sla),
    };
    return c.json(await listTickets(c.var.ctx, filter, { limit, offset }), 200);
  })
  .openapi(getTicketRoute, async (c) => {
    const ctx = c.var.ctx;
    const view = await ticketOf(ctx, c.req.valid("param").id);
    const etag = etagOf(view.ticket.version);
    const held = parseEntityTags("If-None-Match", c.req.valid("header")["if-none-match"]);
    if (!noneMatch(held, etag)) return c.body(null, 304, { ETag: etag });
    return c.json(toTicket(view, ctx.env.PUBLIC_BASE_URL), 200, { ETag: etag });
  })
  .openapi(updateTicketRoute, async (c) => {
    const { id } = c.req.valid("param");
    const guard = guardFor(c.var.ctx, id, c.req.valid("header")["if-match"]);
    return c.json(await updateTicket(c.var.ctx, id, c.req.valid("json"), guard), 200, guard.headers());
  })
  .openapi(deleteTicketRoute, async (c) =>
    c.json(await deleteTicket(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(manageTicketRoute, async (c) => {
    const { id } = c.req.valid("param");
    const guard = guardFor(c.var.ctx, id, c.req.valid("header")["if-match"]);
    return c.json(await manageTicket(c.var.ctx, id, c.req.valid("json"), guard), 200, guard.headers());
  })
  .openapi(listTicketTagsRoute, async (c) => c.json(await tagList(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(addTicketTagRoute, async (c) => {
    const ctx = c.var.ctx;
    const { id } = c.req.valid("param");
    await addTicketTag(ctx, id, c.req.valid("json"));
    return c.json(await tagList(ctx, id), 200);
  })
  .openapi(removeTicketTagRoute, async (c) => {
    const ctx = c.var.ctx;
    const { id, tag_id } = c.req.valid("param");
    await removeTicketTag(ctx, id, tag_id);
    return c.json(await tagList(ctx, id), 200);
  });
