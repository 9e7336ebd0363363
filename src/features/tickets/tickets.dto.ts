import { iso, isoOrNull } from "../../lib/time";
import { publicUrlOf } from "../../webhooks/payloads";
import { slaView } from "../sla/sla.dto";
import type { TicketView } from "./tickets.repo";

export function toTicket(view: TicketView, baseUrl: string, now = Date.now()) {
  const { ticket } = view;
  return {
    id: ticket.id,
    client_id: ticket.clientId,
    subject: ticket.subject,
    status: ticket.status,
    priority: ticket.priority,
    shared_uuid: ticket.sharedUuid,
    public_url: publicUrlOf(baseUrl, ticket.sharedUuid, ticket.accountId),
    metadata: JSON.parse(ticket.metadata) as Record<string, unknown>,
    inbox_id: ticket.inboxId,
    customer_id: ticket.customerId,
    customer: { id: ticket.customerId, email: view.customerEmail, name: view.customerName },
    assignee_id: ticket.assigneeId,
    tags: (JSON.parse(view.tagNames) as Array<string | null>).filter((n): n is string => n !== null).sort(),
    message_count: ticket.messageCount,
    last_message_at: isoOrNull(ticket.lastMessageAt),
    snoozed_until: isoOrNull(ticket.snoozedUntil),
    closed_at: isoOrNull(ticket.closedAt),
    merged_into_id: ticket.mergedIntoId,
    sla: slaView(ticket.sla, now),
    created_at: iso(ticket.createdAt),
    updated_at: iso(ticket.updatedAt),
  };
}

export const clientIdOf = (prefix: string, number: number) => `${prefix}-${String(number).padStart(5, "0")}`;
