import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { findInbox } from "../../features/inboxes/inboxes.repo";
import { listMessages } from "../../features/messages/messages.read";
import { htmlTextsOf } from "../../features/messages/messages.repo";
import { toTicket } from "../../features/tickets/tickets.dto";
import { ticketOf } from "../../features/tickets/tickets.service";
import { notFound } from "../../lib/errors";
import { renderPage, sessionOf } from "../page";
import { TICKET_DONE } from "./labels";
import { workspaceChoices } from "./lookups";
import type { Conflict } from "./reply-conflict";
import { savedReplyChoice } from "./saved-reply-picker";
import { TicketPage } from "./ticket.page";

export interface TicketPageOptions {
  limit: number;
  offset: number;
  done?: keyof typeof TICKET_DONE | undefined;
  saved_reply?: string | undefined;
  /** A reply refused because the ticket changed after the page was loaded (reply-conflict.tsx). */
  conflict?: { text: string; savedReplyId: string | undefined; loadedAt: number } | undefined;
}

/** The ticket page: facts, thread, forms; with a conflict, the news and the reply kept unsent. */
export async function showTicketPage(c: Context<AppEnv>, id: string, options: TicketPageOptions) {
  const ctx = c.var.ctx;
  const view = await ticketOf(ctx, id);
  const ticket = toTicket(view, ctx.env.PUBLIC_BASE_URL);
  const { conflict } = options;
  const page = { limit: options.limit, offset: options.offset };
  const [messages, news, inbox, savedReplies] = await Promise.all([
    listMessages(ctx, id, undefined, page),
    conflict ? listMessages(ctx, id, conflict.loadedAt, { limit: 50, offset: 0 }) : null,
    findInbox(ctx.db, ctx.accountId, ticket.inbox_id),
    savedReplyChoice(ctx, ticket, options.saved_reply, sessionOf(c).userId),
  ]);
  const shown = [...messages.data, ...(news?.data ?? [])];
  const authors = shown.map((message) => message.author.id);
  const choices = await workspaceChoices(ctx.db, ctx.accountId, [ticket.assignee_id, ...authors]);
  if (!inbox) throw notFound(`Inbox ${ticket.inbox_id}`);
  const htmlOnly = shown.filter((m) => !m.body_text && m.body_html).map((m) => m.id);
  const htmlTexts = await htmlTextsOf(ctx.db, ctx.accountId, htmlOnly);
  const refused: Conflict | undefined = conflict && {
    ...conflict,
    news: (news?.data ?? []).filter((m) => !m.is_draft),
  };
  return renderPage(
    c,
    { title: `${ticket.client_id} ${ticket.subject}`, nav: "Tickets", status: refused ? 409 : 200 },
    <TicketPage
      ticket={ticket}
      version={view.ticket.version}
      inbox={inbox}
      messages={messages}
      htmlTexts={htmlTexts}
      people={choices.people}
      csrfToken={c.var.csrfToken}
      notice={options.done ? TICKET_DONE[options.done] : undefined}
      savedReplies={savedReplies}
      conflict={refused}
    />,
  );
}
