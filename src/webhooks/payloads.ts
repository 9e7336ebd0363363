import type { customers, inboxes, tickets } from "../db/schema";
import { iso } from "../lib/time";
import { inWorkspace } from "../lib/workspace-link";

type InboxRow = typeof inboxes.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

/** The objects of webhook payloads, with the spec's field names. */
export const inboxData = (inbox: InboxRow) => ({
  id: inbox.id,
  name: inbox.name,
  email_address: inbox.emailAddress,
});

/** A ticket's public page, naming its workspace (workspace-link.ts). */
export const publicUrlOf = (baseUrl: string, sharedUuid: string, accountId: string) =>
  inWorkspace(`${baseUrl.replace(/\/+$/, "")}/portal/tickets/${sharedUuid}`, accountId);

export const ticketData = (ticket: TicketRow, baseUrl: string) => ({
  id: ticket.id,
  client_id: ticket.clientId,
  subject: ticket.subject,
  status: ticket.status,
  priority: ticket.priority,
  shared_uuid: ticket.sharedUuid,
  public_url: publicUrlOf(baseUrl, ticket.sharedUuid, ticket.accountId),
  metadata: JSON.parse(ticket.metadata) as Record<string, unknown>,
  assignee_id: ticket.assigneeId,
  created_at: iso(ticket.createdAt),
  updated_at: iso(ticket.updatedAt),
});

export const customerData = (customer: CustomerRow) => ({
  id: customer.id,
  email: customer.email,
  name: customer.name ?? "",
  phone: customer.phone,
});
