import { runBatch } from "../../db/client";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { oneLine } from "../../lib/text";
import { domainOf } from "../../mail/address";
import { acceptedStatements, prepareEmails } from "../emails/emails.accept";
import type { NormalizedEmail } from "../emails/emails.input";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { loadSendState } from "../emails/send-state";
import type { TicketContext } from "../tickets/ticket-context";
import { surveyMail } from "./survey-mail";
import { claimedBy, claimStatement, surveyContextOf } from "./survey-requests.repo";

/** The `source` of survey emails in GET /v1/emails. */
export const SURVEY_SOURCE = "survey";

type Found = NonNullable<Awaited<ReturnType<typeof surveyContextOf>>>;

async function surveyEmail(ctx: TicketContext, found: Found): Promise<NormalizedEmail> {
  const { ticket, customer, inbox, survey } = found;
  const mail = await surveyMail(ctx.env, {
    kind: survey.kind,
    question: survey.question,
    accountId: ticket.accountId,
    ticketId: ticket.id,
    ticketSubject: ticket.subject,
    inboxName: inbox.name,
  });
  const to = { ...(customer.name ? { name: oneLine(customer.name) } : {}), address: customer.email };
  return {
    from: { name: oneLine(inbox.name), address: inbox.emailAddress },
    fromDomain: domainOf(inbox.emailAddress),
    to: [to],
    cc: [],
    bcc: [],
    replyTo: [],
    recipients: [customer.email.toLowerCase()],
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    // RFC 3834: out-of-office and other automatic responders must not answer it.
    headers: { "Auto-Submitted": "auto-generated" },
    tags: [{ name: "survey", value: survey.id }],
    attachments: [],
    scheduledAt: null,
    // A rating link is a capability: never rewritten into a tracked redirect.
    trackOpens: false,
    trackClicks: false,
  };
}

/**
 * Emails the survey of a just resolved ticket, when an active survey covers its inbox and the
 * customer is neither blocked nor unsubscribed. The claim (the ticket's survey_requests row, naming
 * this email) and the email commit in one D1 batch, the email's rows written only if this claim
 * won: a re-resolve or a concurrent resolve writes and sends nothing, and its quota is given back;
 * so does a send whose survey changed kind since it was read (its links would be on the old scale).
 * The email pipeline's own checks apply (verified domain, quotas, suppression); a refusal is
 * logged and nothing is claimed, so the ticket is not marked as surveyed.
 */
export async function sendSurveyEmail(ctx: TicketContext, ticketId: string): Promise<void> {
  const found = await surveyContextOf(ctx.db, ctx.accountId, ticketId);
  if (!found || found.customer.blocked || found.customer.unsubscribed) return;
  const email = await surveyEmail(ctx, found);
  const state = await loadSendState(
    ctx.db,
    ctx.accountId,
    [email.fromDomain],
    email.recipients,
    null,
    ctx.now,
  );
  if (!state.account) return;
  let prepared: Awaited<ReturnType<typeof prepareEmails>>;
  try {
    prepared = await prepareEmails(
      { db: ctx.db, files: ctx.env.FILES, account: state.account, state, now: ctx.now },
      [email],
      SURVEY_SOURCE,
      0,
      { holds: (email) => claimedBy(ticketId, email.id) },
    );
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    log.info("surveys.not_sent", { ticket_id: ticketId, code: error.code });
    return;
  }
  const row = prepared.rows[0] as EmailRow;
  const claim = claimStatement(
    {
      ticketId,
      accountId: ctx.accountId,
      surveyId: found.survey.id,
      inboxId: found.ticket.inboxId,
      customerId: found.customer.id,
      assigneeId: found.ticket.assigneeId,
      emailId: row.id,
      sentAt: ctx.now,
    },
    found.survey.kind,
  );
  let claimed = 0;
  try {
    await prepared.store();
    const [result] = await runBatch(ctx.db, [
      claim,
      ...prepared.statements,
      ...acceptedStatements(prepared.rows),
    ]);
    claimed = result?.meta.changes ?? 0;
  } catch (error) {
    await prepared.abort();
    throw error;
  }
  if (claimed === 0) {
    await prepared.abort().catch((e: unknown) => log.warn("surveys.release_failed", describeError(e)));
    return;
  }
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [row], ctx.now);
}
