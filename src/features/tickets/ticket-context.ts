import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customers, inboxes } from "../../db/schema";
import { customerData, inboxData, ticketData } from "../../events/payloads";
import { notFound } from "../../lib/errors";
import type { TicketRow } from "./tickets.repo";

export interface TicketContext {
  db: Db;
  env: Pick<Env, "PUBLIC_BASE_URL" | "FILES" | "EMAIL_QUEUE" | "ENCRYPTION_KEY">;
  accountId: string;
  now: number;
}

export async function inboxOf(ctx: TicketContext, inboxId: string) {
  const rows = await ctx.db
    .select()
    .from(inboxes)
    .where(and(eq(inboxes.accountId, ctx.accountId), eq(inboxes.id, inboxId)))
    .limit(1);
  const inbox = rows[0];
  if (!inbox) throw notFound(`Inbox ${inboxId}`);
  return inbox;
}

export async function customerOf(ctx: TicketContext, customerId: string) {
  const rows = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.accountId, ctx.accountId), eq(customers.id, customerId)))
    .limit(1);
  const customer = rows[0];
  if (!customer) throw notFound(`Customer ${customerId}`);
  return customer;
}

/** The `data` of a ticket event: inbox, ticket and customer as they are now. */
export async function ticketEventData(ctx: TicketContext, ticket: TicketRow) {
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  return {
    inbox: inboxData(inbox),
    ticket: ticketData(ticket, ctx.env.PUBLIC_BASE_URL),
    customer: customerData(customer),
  };
}
