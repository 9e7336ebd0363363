import type { Db } from "../../db/client";
import { notFound } from "../../lib/errors";
import type { Defer } from "../../webhooks/announce";
import { type EventName, recordEvent } from "../../webhooks/outbox";
import { customerData, ticketData } from "../../webhooks/payloads";
import { findCustomer } from "../customers/customers.repo";
import { findInbox } from "../inboxes/inboxes.repo";
import type { TicketRow } from "./tickets.repo";

export interface TicketContext {
  db: Db;
  env: Pick<
    Env,
    "PUBLIC_BASE_URL" | "FILES" | "EMAIL_QUEUE" | "WEBHOOK_QUEUE" | "ENCRYPTION_KEY" | "ENROLLMENT_WORKFLOW"
  >;
  accountId: string;
  now: number;
  /** Where work after the response goes; without it, that work is awaited. */
  defer?: Defer;
}

export async function inboxOf(ctx: TicketContext, inboxId: string) {
  const inbox = await findInbox(ctx.db, ctx.accountId, inboxId);
  if (!inbox) throw notFound(`Inbox ${inboxId}`);
  return inbox;
}

export async function customerOf(ctx: TicketContext, customerId: string) {
  const customer = await findCustomer(ctx.db, ctx.accountId, customerId);
  if (!customer) throw notFound(`Customer ${customerId}`);
  return customer;
}

/**
 * A ticket event (inbox, ticket and customer as they are now), ready for the change's batch and
 * written only while the ticket exists: after an update, before a delete.
 */
export async function recordTicketEvent(ctx: TicketContext, name: EventName, ticket: TicketRow) {
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  // The inbox goes back with the event: the write's SLA reads its policy from it (sla/inbox-policy.ts).
  const event = recordEvent(
    {
      accountId: ctx.accountId,
      inbox,
      name,
      data: { ticket: ticketData(ticket, ctx.env.PUBLIC_BASE_URL), customer: customerData(customer) },
      guard: { table: "tickets", id: ticket.id },
    },
    ctx.now,
  );
  return { ...event, inbox };
}
