import { AppError } from "../../lib/errors";
import { renderMarkdown } from "../changelog/changelog.markdown";
import type { CustomerRow } from "../customers/customers.repo";
import type { InboxRow } from "../inboxes/inboxes.repo";
import { addTagsStatements } from "../tickets/manage.service";
import { customerOf, inboxOf, type TicketContext } from "../tickets/ticket-context";
import { ticketUpdate } from "../tickets/ticket-update";
import type { TicketRow } from "../tickets/tickets.repo";
import { ticketOf } from "../tickets/tickets.service";
import { findUser } from "../users/users.repo";
import { assertAssignable } from "../users/users.service";
import type { SavedReplyActions } from "./saved-replies.schemas";
import { savedReplyOf, toSavedReply } from "./saved-replies.service";
import { renderTemplate } from "./template";

/** The ticket a saved reply is used on, as the message's request has already read it. */
export interface ReplyTarget {
  ticket: TicketRow;
  inbox: InboxRow;
  customer: CustomerRow;
  /**
   * The person writing (`{{ user.name }}`): the dashboard's signed-in user. An API key is no
   * person, so through the API `user` has no value and `{{ user.name }}` needs a default.
   */
  userId?: string | undefined;
  /** `false`: the request brings its own text (the reply edited); only scope and actions count. */
  render?: boolean;
}

export interface UsedReply {
  /** Null when not rendered (`render: false`). */
  bodyText: string | null;
  bodyHtml: string | null;
  actions: SavedReplyActions;
}

/**
 * A saved reply made ready for one ticket: the scope checked (422 `saved_reply_other_inbox`), the
 * variables filled in (422 when one has no value and no default), the Markdown rendered and
 * sanitized, and the assignee of its actions checked before anything is sent.
 */
export async function useSavedReply(ctx: TicketContext, id: string, target: ReplyTarget): Promise<UsedReply> {
  const reply = toSavedReply(await savedReplyOf(ctx, id));
  if (reply.inbox_id && reply.inbox_id !== target.ticket.inboxId) {
    throw new AppError(
      422,
      "saved_reply_other_inbox",
      "Saved reply of another inbox",
      `Saved reply ${id} belongs to inbox ${reply.inbox_id}; ticket ${target.ticket.id} is in ${target.ticket.inboxId}.`,
    );
  }
  await assertAssignable(ctx, reply.actions.assignee_id, "saved_reply.actions.assignee_id");
  if (target.render === false) return { bodyText: null, bodyHtml: null, actions: reply.actions };
  const user = target.userId ? await findUser(ctx.db, ctx.accountId, target.userId) : null;
  const { customer, ticket, inbox } = target;
  const { markdown, text } = renderTemplate(reply.body, {
    "customer.first_name": customer.name?.trim().split(/\s+/)[0],
    "customer.name": customer.name,
    "customer.email": customer.email,
    "ticket.client_id": ticket.clientId,
    "ticket.subject": ticket.subject,
    "user.name": user?.name,
    "inbox.name": inbox.name,
  });
  return { bodyText: text, bodyHtml: await renderMarkdown(markdown), actions: reply.actions };
}

/** POST /v1/saved-replies/{id}/preview: what using it on the ticket would send and change. */
export async function previewSavedReply(ctx: TicketContext, id: string, ticketId: string, userId?: string) {
  const { ticket } = await ticketOf(ctx, ticketId);
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  const used = await useSavedReply(ctx, id, { ticket, inbox, customer, userId });
  return { body_text: used.bodyText ?? "", body_html: used.bodyHtml ?? "", actions: used.actions };
}

/**
 * A used reply's actions as statements for its message's own batch, made from the ticket as the
 * message leaves it: `status` (a note's; a reply's is its status after send, already in the
 * message's change) and `assignee_id` as a PATCH (`ticket.updated`, with the same payload), and
 * `add_tags` as POST /v1/tickets/{id}/manage does (no event). So the message and its actions
 * commit together or not at all, and a retried request's stored answer applies nothing again.
 */
export async function actionsChange(
  ctx: TicketContext,
  ticket: TicketRow,
  actions: SavedReplyActions,
  statusDone: boolean,
) {
  const status = statusDone ? undefined : actions.status;
  const update =
    status !== undefined || actions.assignee_id !== undefined
      ? await ticketUpdate(ctx, ticket, {
          ...(status !== undefined ? { status } : {}),
          ...(actions.assignee_id !== undefined ? { assignee_id: actions.assignee_id } : {}),
        })
      : null;
  const tagLinks = actions.add_tags?.length ? await addTagsStatements(ctx, ticket, actions.add_tags) : [];
  return {
    ticket: update?.ticket ?? ticket,
    statements: [...(update?.statements ?? []), ...tagLinks],
    events: update ? [update.event] : [],
  };
}
