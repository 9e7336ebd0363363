import type { Context } from "hono";
import { principalOf } from "../../auth/principal";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { countedList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { iso } from "../../lib/time";
import { addTicketTag, manageTicket, removeTicketTag } from "./manage.service";
import type { TicketContext } from "./ticket-context";
import { ticketTagsQuery } from "./tickets.repo";
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
import {
  createTicket,
  deleteTicket,
  listTickets,
  showTicket,
  ticketOf,
  updateTicket,
} from "./tickets.service";

export const ticketContext = (c: Context<AppEnv>): TicketContext => ({
  db: createDb(c.env.DB),
  env: c.env,
  accountId: principalOf(c).accountId,
  now: Date.now(),
  defer: (work) => c.executionCtx.waitUntil(work),
});

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
  .openapi(createTicketRoute, async (c) =>
    c.json(await createTicket(ticketContext(c), c.req.valid("json")), 201),
  )
  .openapi(listTicketsRoute, async (c) => {
    const { limit, offset, status, priority, inbox_id, customer_id, assignee_id, tag, q, updated_after } =
      c.req.valid("query");
    const filter = {
      status,
      priority,
      inboxId: inbox_id,
      customerId: customer_id,
      assigneeId: assignee_id,
      tag,
      q,
      updatedAfter: updated_after ? Date.parse(updated_after) : undefined,
    };
    return c.json(await listTickets(ticketContext(c), filter, { limit, offset }), 200);
  })
  .openapi(getTicketRoute, async (c) =>
    c.json(await showTicket(ticketContext(c), c.req.valid("param").id), 200),
  )
  .openapi(updateTicketRoute, async (c) =>
    c.json(await updateTicket(ticketContext(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteTicketRoute, async (c) =>
    c.json(await deleteTicket(ticketContext(c), c.req.valid("param").id), 200),
  )
  .openapi(manageTicketRoute, async (c) =>
    c.json(await manageTicket(ticketContext(c), c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(listTicketTagsRoute, async (c) =>
    c.json(await tagList(ticketContext(c), c.req.valid("param").id), 200),
  )
  .openapi(addTicketTagRoute, async (c) => {
    const ctx = ticketContext(c);
    const { id } = c.req.valid("param");
    await addTicketTag(ctx, id, c.req.valid("json"));
    return c.json(await tagList(ctx, id), 200);
  })
  .openapi(removeTicketTagRoute, async (c) => {
    const ctx = ticketContext(c);
    const { id, tag_id } = c.req.valid("param");
    await removeTicketTag(ctx, id, tag_id);
    return c.json(await tagList(ctx, id), 200);
  });
