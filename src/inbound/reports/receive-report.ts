import type { Db } from "../../db/client";
import type { MAIL_REPORT_KINDS, REPORT_OUTCOMES } from "../../db/schema";
import { type AnnounceSince, runBatchAnnouncing } from "../../features/email-webhooks/announce-batch";
import { newId } from "../../lib/ids";
import { log } from "../../lib/logger";
import type { RawMail } from "../raw-mail";
import { reportStatements } from "./apply-report";
import { MAX_DIAGNOSTIC } from "./delivery-fields";
import type { MailReport, ReportedRecipient } from "./read-report";
import { insertReport, type ReportedEmail } from "./reports.repo";

export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

export interface ReportInput {
  /** Null when the mail is no RFC 3464 or RFC 5965 report. */
  report: MailReport | null;
  /** Why the mail could not be read at all (not MIME, or a report part the reader gave up on). */
  unreadable?: string | null;
  /** The email it is about, when the bounce token or the original's Message-ID names one. */
  email: ReportedEmail | null;
  /**
   * The workspace it belongs to: the email's, else the one whose inbox received it; null only
   * for a report to a bounce address whose email is gone.
   */
  accountId: string | null;
  /** The one recipient of `email` the report may change (see `namedRecipient`); null: none. */
  named: string | null;
  envelope: { mailFrom: string; rcptTo: string };
  /** The report's own Message-ID. */
  messageId: string | null;
  raw: RawMail;
  now: number;
}

/** Which recipients the report changes: only the one its key names, when the report acts on it. */
function outcomeOf(input: ReportInput): { outcome: ReportOutcome; acted: ReportedRecipient[] } {
  const { report, email, named } = input;
  if (!report) return { outcome: "unsupported", acted: [] };
  const acted = report.recipients.filter((r) => r.kind !== null && email && r.address === named);
  if (acted.length > 0) return { outcome: "applied", acted };
  const actionable = report.recipients.some((r) => r.kind !== null);
  return { outcome: !email || actionable ? "unmatched" : "informational", acted };
}

/**
 * Why an actionable recipient of the report changed nothing, for the record: the email did not go
 * to them, the token names another recipient, or the key names the email only and it went to several.
 */
function ignoredBecause(input: ReportInput, r: ReportedRecipient): string | undefined {
  if (r.kind === null || !input.email || r.address === input.named) return undefined;
  if (!input.email.recipients.includes(r.address)) return "not_a_recipient";
  return input.named === null ? "key_names_no_recipient" : "other_recipient_than_token";
}

const KINDS: Record<MailReport["type"], (typeof MAIL_REPORT_KINDS)[number]> = {
  delivery_status: "bounce",
  feedback: "complaint",
};

/** The columns GET /v1/mail-reports shows: the recipient acted on, else the first one named. */
function listedColumns(input: ReportInput, acted: ReportedRecipient[]) {
  const { report } = input;
  const listed = acted[0] ?? report?.recipients[0] ?? null;
  const kind = listed?.kind;
  return {
    kind: report ? KINDS[report.type] : ("unsupported" as const),
    // Lowercase as suppressions store addresses: the list's filter and `action` compare with them.
    recipient: listed?.address.toLowerCase() ?? null,
    bounceType: kind === "hard" || kind === "soft" ? kind : null,
    statusCode: listed?.status ?? null,
    replyCode: listed?.replyCode ?? null,
    diagnostic:
      listed?.diagnostic ??
      (input.unreadable ? `Unreadable: ${input.unreadable}`.slice(0, MAX_DIAGNOSTIC) : null),
    reportingMta: report?.reportingMta ?? null,
  };
}

/**
 * Records a bounce or complaint report and, when it names an email of ours and recipients of it,
 * marks them (bounced, delayed, complained), counts the bounces, suppresses as the rules say and
 * updates the email: all in one batch with the record. A report naming no email of ours is
 * recorded and changes nothing. The email events it writes (bounced, complained, delayed) are
 * announced at once through `announce`; no inbox webhook event: those are about tickets and inboxes.
 */
export async function receiveReport(
  db: Db,
  input: ReportInput,
  announce?: AnnounceSince,
): Promise<ReportOutcome> {
  const { outcome, acted } = outcomeOf(input);
  const detail = (input.report?.recipients ?? []).map((r) => ({
    ...r,
    counted: acted.includes(r),
    ignored: ignoredBecause(input, r),
  }));
  const record = insertReport(
    db,
    {
      publicId: newId("rpt"),
      accountId: input.accountId,
      emailId: input.email?.id ?? null,
      type: input.report?.type ?? null,
      outcome,
      ...listedColumns(input, acted),
      detail: JSON.stringify(detail),
      mailFrom: input.envelope.mailFrom,
      rcptTo: input.envelope.rcptTo,
      messageId: input.messageId,
      rawKey: input.raw.key,
      rawSize: input.raw.bytes.length,
      createdAt: input.now,
    },
    acted.length > 0,
  );
  const email = acted.length > 0 ? input.email : null;
  await runBatchAnnouncing(
    db,
    () => [...(email ? reportStatements(email, acted, input.now) : []), record],
    email ? announce : undefined,
  );
  log.info("inbound.report", {
    type: input.report?.type ?? null,
    outcome,
    email_id: input.email?.id ?? null,
    recipients: acted.length,
  });
  return outcome;
}
