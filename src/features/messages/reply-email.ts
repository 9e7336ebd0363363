import type { customers, inboxes } from "../../db/schema";
import { domainOf, formatAddress } from "../../mail/address";
import { replyToken } from "../../mail/reply-token";
import { sendFromFeature } from "../emails/emails.service";
import type { TicketContext } from "../tickets/ticket-context";
import type { TicketRow } from "../tickets/tickets.repo";
import { threadMessageIds } from "./messages.repo";
import type { AttachmentInputs } from "./messages.schemas";

type InboxRow = typeof inboxes.$inferSelect;
type CustomerRow = typeof customers.$inferSelect;

/** Every outbound message of a ticket hangs off this id, so mail clients thread even the first reply. */
export const threadRootId = (ticket: TicketRow, inbox: InboxRow) =>
  `<${ticket.id}@${domainOf(inbox.emailAddress)}>`;

/** RFC 5321's limit on a local part; mail servers may refuse longer ones. */
const MAX_LOCAL_PART = 64;

/**
 * Replies to this address come back to the ticket: `<local>+<signed reply token>@<domain>`
 * (src/mail/reply-token.ts; `secret` is ENCRYPTION_KEY). When the token would not fit the local
 * part, the inbox's own address: replies then thread by In-Reply-To and References.
 */
export async function replyAddressOf(secret: string, ticket: TicketRow, inbox: InboxRow) {
  const at = inbox.emailAddress.lastIndexOf("@");
  const local = `${inbox.emailAddress.slice(0, at)}+${await replyToken(secret, ticket.id)}`;
  return local.length <= MAX_LOCAL_PART ? `${local}${inbox.emailAddress.slice(at)}` : inbox.emailAddress;
}

export interface ReplyContent {
  bodyText: string | null;
  bodyHtml: string | null;
  cc: string[];
  attachments: AttachmentInputs;
  subject: string;
}

/**
 * Emails a reply to the customer from the inbox address, through the email pipeline (every check of
 * POST /v1/emails applies: verified domain, quotas, suppression, size), with Message-ID,
 * In-Reply-To and References for threading and a Reply-To that leads back to this ticket.
 */
export async function emailReply(
  ctx: TicketContext,
  ticket: TicketRow,
  inbox: InboxRow,
  customer: CustomerRow,
  content: ReplyContent,
) {
  const thread = [threadRootId(ticket, inbox), ...(await threadMessageIds(ctx.db, ticket.id))];
  return sendFromFeature(
    { db: ctx.db, env: ctx.env, accountId: ctx.accountId, now: ctx.now },
    {
      from: formatAddress({ name: inbox.name, address: inbox.emailAddress }),
      to: formatAddress({ ...(customer.name ? { name: customer.name } : {}), address: customer.email }),
      ...(content.cc.length > 0 ? { cc: content.cc } : {}),
      reply_to: await replyAddressOf(ctx.env.ENCRYPTION_KEY, ticket, inbox),
      subject: content.subject,
      ...(content.bodyText ? { text: content.bodyText } : {}),
      ...(content.bodyHtml ? { html: content.bodyHtml } : {}),
      headers: { "In-Reply-To": thread.at(-1) as string, References: thread.join(" ") },
      ...(content.attachments.length > 0 ? { attachments: content.attachments } : {}),
    },
    "ticket",
  );
}

export const replySubject = (subject: string) => (/^re:/i.test(subject) ? subject : `Re: ${subject}`);
