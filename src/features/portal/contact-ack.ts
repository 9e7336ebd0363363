import { html } from "hono/html";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { publicUrlOf } from "../../webhooks/payloads";
import { commitEmails } from "../emails/emails.accept";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { prepareReply, replySubject } from "../messages/reply-email";
import { customerOf, inboxOf, type TicketContext } from "../tickets/ticket-context";
import { ticketOf } from "../tickets/tickets.service";

/** What the acknowledgement says; the ticket's link appears nowhere else the poster can see. */
function acknowledgement(clientId: string, link: string) {
  const text = `We have your message and will answer by email.\n\nYour ticket is ${clientId}. Follow the conversation and reply on its page:\n${link}\n\nKeep this link to yourself: anyone who has it can read the conversation. You can also answer this email.\n`;
  const body = html`<p>We have your message and will answer by email.</p>
<p>Your ticket is <strong>${clientId}</strong>. <a href="${link}">Follow the conversation and reply on its page</a>.</p>
<p>Keep this link to yourself: anyone who has it can read the conversation. You can also answer this email.</p>`;
  return { text, html: String(body) };
}

/**
 * Mails a ticket opened by the contact form's poster its link: from the inbox, to the address the
 * form gave, through every check of POST /v1/emails (verified domain, quotas, suppression). Only
 * the owner of that address learns the link, so a form posted in someone else's name shows the
 * poster nothing. A refused send (quota, suppressed address) is logged and leaves the ticket as it is:
 * the team still answers it by email.
 */
export async function acknowledgeContact(ctx: TicketContext, ticketId: string, clientId: string) {
  const { ticket } = await ticketOf(ctx, ticketId);
  const [inbox, customer] = await Promise.all([
    inboxOf(ctx, ticket.inboxId),
    customerOf(ctx, ticket.customerId),
  ]);
  const content = acknowledgement(
    clientId,
    publicUrlOf(ctx.env.PUBLIC_BASE_URL, ticket.sharedUuid, ticket.accountId),
  );
  try {
    const email = await prepareReply(
      ctx,
      ticket,
      inbox,
      customer,
      {
        bodyText: content.text,
        bodyHtml: content.html,
        cc: [],
        attachments: [],
        subject: `[${clientId}] ${replySubject(ticket.subject)}`,
        autoReply: true,
      },
      0,
    );
    await commitEmails(ctx.db, email);
    await enqueueEmails(ctx.env.EMAIL_QUEUE, [email.row as EmailRow], ctx.now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    log.warn("portal.acknowledgement_refused", { ticketId, ...describeError(error) });
  }
}
