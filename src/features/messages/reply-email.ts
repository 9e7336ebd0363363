import type { customers, inboxes } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { oneLine } from "../../lib/text";
import { domainOf, type MailAddress, parseAddress } from "../../mail/address";
import { subjectProblem } from "../../mail/mime/checks";
import { replyToken } from "../../mail/reply-token";
import type { NormalizedEmail } from "../emails/emails.input";
import { prepareFeatureEmail } from "../emails/emails.service";
import type { TicketContext } from "../tickets/ticket-context";
import type { TicketRow } from "../tickets/tickets.repo";
import { type AttachmentRow, threadMessageIds } from "./messages.repo";

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
  /** The message's files, already in R2: the email refers to them rather than keeping a copy. */
  attachments: AttachmentRow[];
  subject: string;
  /** An automatic answer (RFC 3834 `Auto-Submitted: auto-replied`), which responders leave unanswered. */
  autoReply?: boolean;
}

function ccAddresses(cc: string[]): MailAddress[] {
  const details = cc.flatMap((text, i) =>
    parseAddress(text)
      ? []
      : [{ path: `body.cc.${i}`, message: `${JSON.stringify(text)} is not an email address` }],
  );
  if (details.length > 0) {
    const summary = details.map((d) => `${d.path}: ${d.message}`).join("; ");
    throw new AppError(400, "validation_error", "Invalid request", summary, { details });
  }
  return cc.flatMap((text) => parseAddress(text) ?? []);
}

/**
 * The email of a reply to the customer, from the inbox address, with Message-ID, In-Reply-To and
 * References for threading and a Reply-To that leads back to this ticket. It is handed to the
 * email pipeline as a normalized email (no formatted strings or base64 to parse again), and every
 * check of POST /v1/emails applies: verified domain, quotas, suppression, size. `extraBytes` is
 * the storage the message's own batch adds, reserved with the email.
 */
export async function prepareReply(
  ctx: TicketContext,
  ticket: TicketRow,
  inbox: InboxRow,
  customer: CustomerRow,
  content: ReplyContent,
  extraBytes: number,
) {
  const thread = [threadRootId(ticket, inbox), ...(await threadMessageIds(ctx.db, ctx.accountId, ticket.id))];
  // Names are one line since they are checked on input; rows stored before that may not be.
  const from = { name: oneLine(inbox.name), address: inbox.emailAddress };
  const to = [{ ...(customer.name ? { name: oneLine(customer.name) } : {}), address: customer.email }];
  const subjectIssue = subjectProblem(content.subject);
  if (subjectIssue) {
    throw new AppError(400, "validation_error", "Invalid request", `subject: ${subjectIssue}`, {
      details: [{ path: "subject", message: subjectIssue }],
    });
  }
  const cc = ccAddresses(content.cc);
  const replyTo = parseAddress(await replyAddressOf(ctx.env.ENCRYPTION_KEY, ticket, inbox));
  const email: NormalizedEmail = {
    from,
    fromDomain: domainOf(inbox.emailAddress),
    to,
    cc,
    bcc: [],
    replyTo: replyTo ? [replyTo] : [],
    recipients: [...new Set([...to, ...cc].map((a) => a.address.toLowerCase()))],
    subject: content.subject,
    html: content.bodyHtml,
    text: content.bodyText,
    headers: {
      "In-Reply-To": thread.at(-1) as string,
      References: thread.join(" "),
      ...(content.autoReply ? { "Auto-Submitted": "auto-replied" } : {}),
    },
    tags: [],
    attachments: content.attachments.map((file) => ({
      filename: file.filename,
      contentType: file.contentType,
      contentId: null,
      size: file.size,
      content: { key: file.key },
    })),
    scheduledAt: null,
    trackOpens: undefined,
    trackClicks: undefined,
  };
  return prepareFeatureEmail(ctx, email, "ticket", extraBytes, inbox.id);
}

export const replySubject = (subject: string) => (/^re:/i.test(subject) ? subject : `Re: ${subject}`);
