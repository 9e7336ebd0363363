import { CreateMessageBodySchema } from "../../features/messages/messages.schemas";
import { addMessage } from "../../features/messages/messages.service";
import { previewSavedReply } from "../../features/saved-replies/use";
import { manageTicket } from "../../features/tickets/manage.service";
import type { TicketContext } from "../../features/tickets/ticket-context";
import { updateTicket } from "../../features/tickets/ticket-update";
import { VersionGuard } from "../../features/tickets/ticket-version";
import { deleteTicket, showTicket } from "../../features/tickets/tickets.service";
import { AppError } from "../../lib/errors";
import { createRouter, mount, validationError } from "../../lib/router";
import { sessionOf } from "../page";
import { patchOf, tagChanges, tagNamesOf } from "./edit";
import { newTicketRouter } from "./new-ticket.handlers";
import { presenceRouter } from "./presence.handlers";
import { sameText } from "./saved-reply-picker";
import { showTicketList } from "./ticket-list";
import { showTicketPage } from "./ticket-view";
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
  .openapi(ticketPageRoute, async (c) => showTicketPage(c, c.req.valid("param").id, c.req.valid("query")))
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
    const form = c.req.valid("form");
    const input = await messageInput(c.var.ctx, id, "reply", form, sessionOf(c).userId);
    const expected = form.version === undefined ? undefined : [form.version];
    const guard = new VersionGuard(c.var.ctx.accountId, id, expected);
    try {
      await addMessage(c.var.ctx, id, input, { author: { userId: sessionOf(c).userId }, guard });
    } catch (error) {
      if (!(error instanceof AppError && error.code === "ticket_changed")) throw error;
      const conflict = {
        text: form.body_text,
        savedReplyId: form.saved_reply_id,
        loadedAt: form.loaded_at ?? 0,
      };
      return showTicketPage(c, id, { limit: 50, offset: 0, conflict });
    }
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
mount(ticketsPagesRouter, "/", listRouter);
mount(ticketsPagesRouter, "/", newTicketRouter);
mount(ticketsPagesRouter, "/", viewFormsRouter);
mount(ticketsPagesRouter, "/", presenceRouter);
mount(ticketsPagesRouter, "/", ticketRouter);
