import { sql } from "drizzle-orm";
import { recordEvent } from "../../webhooks/outbox";
import { customerData, ticketData } from "../../webhooks/payloads";
import type { CustomerRow } from "../customers/customers.repo";
import type { InboxRow } from "../inboxes/inboxes.repo";
import type { TicketRow } from "../tickets/tickets.repo";
import { assignByRule, assignedJustNow, ruleMayAssign } from "./assignment.repo";

/** The assignee `assignByRule`'s ticket update answered, or null when it assigned nobody. */
export function assigneeChosen(result: D1Result | undefined): string | null {
  const row = (result?.results ?? [])[0] as { assignee_id?: string | null } | undefined;
  return row?.assignee_id ?? null;
}

/**
 * The stored idempotent answer of a create takes the assignee the rule chose in the same batch
 * (the answer was made before the batch), so a retry answers what the first request did.
 */
export const storedAssignee = (accountId: string, key: string, ticketId: string) => sql`
  UPDATE idempotency_keys
  SET response_body = json_set(response_body, '$.assignee_id', (SELECT assignee_id FROM tickets WHERE id = ${ticketId}))
  WHERE account_id = ${accountId} AND key = ${key}`;

/**
 * What a customer's message adds to its batch before the update that reopens the ticket: the
 * rule's reassignment of a resolved or closed ticket whose assignee is away, disabled or gone
 * (assignByRule), and `ticket.updated`, written only when the assignee changed, as a manual
 * assignment fires it. Nothing (null) for a manual inbox as read before the batch (`ruleMayAssign`).
 */
export function reassignOnReopen(
  ctx: { accountId: string; now: number; env: { PUBLIC_BASE_URL: string } },
  inbox: InboxRow,
  customer: CustomerRow,
  ticketAfter: TicketRow,
) {
  if (!ruleMayAssign(inbox)) return null;
  const event = recordEvent(
    {
      accountId: ctx.accountId,
      inbox,
      name: "ticket.updated",
      data: { ticket: ticketData(ticketAfter, ctx.env.PUBLIC_BASE_URL), customer: customerData(customer) },
      guard: { table: "tickets", id: ticketAfter.id, when: assignedJustNow },
    },
    ctx.now,
  );
  return { statements: [...assignByRule(ctx.accountId, ticketAfter, true), ...event.statements], event };
}
