import { findInbox } from "../../features/inboxes/inboxes.repo";
import { listMessages } from "../../features/messages/messages.read";
import { htmlTextsOf } from "../../features/messages/messages.repo";
import { CreateMessageBodySchema } from "../../features/messages/messages.schemas";
import { addMessage } from "../../features/messages/messages.service";
import { previewSavedReply } from "../../features/saved-replies/use";
import { manageTicket } from "../../features/tickets/manage.service";
import type { TicketContext } from "../../features/tickets/ticket-context";
import { deleteTicket, showTicket, updateTicket } from "../../features/tickets/tickets.service";
import { notFound } from "../../lib/errors";
import { createRouter, validationError } from "../../lib/router";
import { renderPage, sessionOf } from "../page";
import { patchOf, tagChanges, tagNamesOf } from "./edit";
import { TICKET_DONE } from "./labels";
import { workspaceChoices } from "./lookups";
import { newTicketRouter } from "./new-ticket.handlers";
import { sameText, savedReplyChoice } from "./saved-reply-picker";
import { TicketPage } from "./ticket.page";
import { showTicketList } from "./ticket-list";
import {
  deleteTicketPageRoute,
  editTicketPageRoute,
  notePageRoute,
  replyPageRoute,
  ticketPageRoute,
  ticketsPageRoute,
} from "./tickets.routes";
import { viewFormsRouter } from "./view-forms.handlers";

const ticketPath = (id: string) => `/dashboard/tickets/${encodeURIComponent(id)}`;

const listRouter = createRouter().openapi(ticketsPageRoute, (c) => showTicketList(c, c.req.valid("query")));

const ticketRouter = createRouter()
  .openapi(ticketPageRoute, async (c) => {
    const ctx = c.var.ctx;
    const { id } = c.req.valid("param");
    const { limit, offset, done, saved_reply } = c.req.valid("query");
    const ticket = await showTicket(ctx, id);
    const [messages, inbox, savedReplies] = await Promise.all([
      listMessages(ctx, id, undefined, { limit, offset }),
      findInbox(ctx.db, ctx.accountId, ticket.inbox_id),
      savedReplyChoice(ctx, ticket, saved_reply, sessionOf(c).userId),
    ]);
    const authors = messages.data.map((message) => message.author.id);
    const choices = await workspaceChoices(ctx.db, ctx.accountId, [ticket.assignee_id, ...authors]);
    if (!inbox) throw notFound(`Inbox ${ticket.inbox_id}`);
    const htmlOnly = messages.data.filter((m) => !m.body_text && m.body_html).map((m) => m.id);
    const htmlTexts = await htmlTextsOf(ctx.db, ctx.accountId, htmlOnly);
    return renderPage(
      c,
      { title: `${ticket.client_id} ${ticket.subject}`, nav: "Tickets" },
      <TicketPage
        ticket={ticket}
        inbox={inbox}
        messages={messages}
        htmlTexts={htmlTexts}
        people={choices.people}
        csrfToken={c.var.csrfToken}
        notice={done ? TICKET_DONE[done] : undefined}
        savedReplies={savedReplies}
      />,
    );
  })
  .openapi(editTicketPageRoute, async (c) => {
    const ctx = c.var.ctx;
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    // Every check runs before the first write, so a refused Save changes nothing.
    const wanted = tagNamesOf(form.tags);
    const ticket = await showTicket(ctx, id);
    const patch = patchOf(ticket, form);
    const tags = tagChanges(ticket.tags, wanted);
    if (Object.keys(patch).length > 0) await updateTicket(ctx, id, patch);
    if (tags.add.length > 0) await manageTicket(ctx, id, { action: "add_tags", tags: tags.add });
    if (tags.remove.length > 0) await manageTicket(ctx, id, { action: "remove_tags", tags: tags.remove });
    const changed = Object.keys(patch).length + tags.add.length + tags.remove.length > 0;
    return c.redirect(`${ticketPath(ticket.id)}?done=${changed ? "saved" : "unchanged"}`, 303);
  })
  .openapi(replyPageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const input = await messageInput(c.var.ctx, id, "reply", c.req.valid("form"), sessionOf(c).userId);
    await addMessage(c.var.ctx, id, input, { author: { userId: sessionOf(c).userId } });
    return c.redirect(`${ticketPath(id)}?done=replied`, 303);
  })
  .openapi(notePageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const input = await messageInput(c.var.ctx, id, "note", c.req.valid("form"), sessionOf(c).userId);
    await addMessage(c.var.ctx, id, input, { author: { userId: sessionOf(c).userId }, announce: false });
    return c.redirect(`${ticketPath(id)}?done=noted`, 303);
  })
  .openapi(deleteTicketPageRoute, async (c) => {
    await deleteTicket(c.var.ctx, c.req.valid("param").id);
    return c.redirect("/dashboard/tickets?done=deleted", 303);
  });

/**
 * The body POST /v1/tickets/{id}/messages would get, checked by that route's own schema. An
 * inserted saved reply left as it was is sent by id, so it goes out rendered (HTML included).
 */
async function messageInput(
  ctx: TicketContext,
  ticketId: string,
  type: "reply" | "note",
  form: { body_text: string; saved_reply_id?: string | undefined },
  userId: string,
) {
  const savedReplyId = form.saved_reply_id || undefined;
  const unchanged =
    savedReplyId &&
    sameText(form.body_text, (await previewSavedReply(ctx, savedReplyId, ticketId, userId)).body_text);
  const body = unchanged
    ? { type, saved_reply_id: savedReplyId }
    : { type, body_text: form.body_text, ...(savedReplyId ? { saved_reply_id: savedReplyId } : {}) };
  const parsed = CreateMessageBodySchema.safeParse(body);
  if (!parsed.success) throw validationError(parsed.error.issues, "form");
  return parsed.data;
}

/**
 * The tickets area. "New ticket" comes before `{id}`, which would otherwise take "new" for an id.
 * Mounted one statement at a time, as the dashboard's router is: a chain's type grows too deep.
 */
export const ticketsPagesRouter = createRouter();
ticketsPagesRouter.route("/", listRouter);
ticketsPagesRouter.route("/", newTicketRouter);
ticketsPagesRouter.route("/", viewFormsRouter);
ticketsPagesRouter.route("/", ticketRouter);
