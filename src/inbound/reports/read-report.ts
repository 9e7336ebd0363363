import PostalMime, { type Header } from "postal-mime";
import type { BounceKind } from "../../features/suppressions/bounces";
import { type InboundFile, type InboundMail, ownMessageId } from "../parse";
import { addressOf, deliveryFields, fieldGroups, fieldOf, MAX_RECIPIENTS, mtaName } from "./delivery-fields";
import {
  isFailureNotice,
  noticeHost,
  noticeRecipients,
  quotedMessageId,
  sentByDaemon,
  splitNotice,
} from "./plain-notice";
import type { MailReport, ReportedRecipient } from "./report-types";

export type { MailReport, ReportedRecipient } from "./report-types";

/** ARF feedback types that mean the recipient did not want the mail (RFC 5965 §7.3). */
const COMPLAINTS = new Set(["abuse", "fraud"]);
const ORIGINAL_TYPES = new Set([
  "message/rfc822",
  "text/rfc822-headers",
  "message/global",
  "message/global-headers",
]);

/** What is read of a returned original: its header block is at the start, and a few KB long. */
const MAX_ORIGINAL_HEAD = 64 * 1024;
/** What a Hotmail complaint's text is searched for a `To:` line in. */
const MAX_COMPLAINT_TEXT = 64 * 1024;

async function originalOf(mail: InboundMail) {
  const part = mail.files.find((f) => ORIGINAL_TYPES.has(f.contentType.toLowerCase()));
  if (!part) return null;
  // Only its header block is wanted (Message-ID, To): the body, up to the whole message, is not parsed.
  const text = new TextDecoder().decode(part.bytes.subarray(0, MAX_ORIGINAL_HEAD));
  const end = text.search(/\r?\n\r?\n/);
  try {
    return await PostalMime.parse(`${end < 0 ? text : text.slice(0, end)}\r\n\r\n`);
  } catch {
    return null;
  }
}

/**
 * Who complained: the report's `Original-Rcpt-To`; without one, the recipient whose envelope the
 * report came back to (each recipient's copy has its own bounce address, so a feedback loop
 * reporting a Bcc recipient's copy reaches that recipient's token though the original's To: names
 * others); failing both, the original's To: addresses.
 */
async function feedbackRecipients(
  mail: InboundMail,
  fields: Header[],
  to: string[],
  envelopeRecipient: string | null,
) {
  const feedbackType = fieldOf(fields, "feedback-type").toLowerCase();
  const named = fields.filter((h) => h.key === "original-rcpt-to").map((h) => addressOf(h.value));
  const addresses = named.some(Boolean) ? named : envelopeRecipient ? [envelopeRecipient] : to.map(addressOf);
  const kind: BounceKind | null = COMPLAINTS.has(feedbackType) ? "complaint" : null;
  return [...new Set(addresses.filter((a): a is string => a !== null))].map((address) => ({
    address,
    action: "complaint",
    status: null,
    replyCode: null,
    diagnostic: `Feedback report (${feedbackType || "no type"}) from ${mail.from?.address ?? "an unnamed sender"}`,
    kind,
  }));
}

/** The report type a `multipart/report` names (RFC 6522), lowercased; null for other mail. */
function reportTypeOf(mail: InboundMail): string | null {
  const contentType = fieldOf(mail.headers, "content-type").toLowerCase();
  if (!contentType.startsWith("multipart/report")) return null;
  return /report-type\s*=\s*"?([a-z0-9-]+)"?/.exec(contentType)?.[1] ?? "";
}

const DELIVERY_STATUS = ["message/delivery-status", "message/global-delivery-status"];
const FEEDBACK_REPORT = ["message/feedback-report"];
/** Where RFC 3464 fields quoted in a notice's text begin (Amazon WorkMail's "Technical report:"). */
const QUOTED_FIELDS = /^(Reporting-MTA|Final-Recipient|Original-Recipient)[ \t]*:/im;

export interface ReadOptions {
  /**
   * Mail to a support inbox, where a customer's mail must never be taken for a bounce: a notice
   * read from its text counts only when a mail server sent it (`sentByDaemon`: not a display
   * name) and it quotes the original's Message-ID.
   */
  inbox?: boolean;
  /** The envelope sender (MAIL FROM), when known: notices come from the null sender. */
  mailFrom?: string;
}

type ReportPart = { type: "delivery" | "feedback"; file: InboundFile; declared: boolean };

/**
 * The report part: the one a `multipart/report` names; in another container (ARF in
 * `multipart/mixed`, OpenSMTPD's delivery status, a report type left out) whichever is there.
 * Other declared reports (read receipts, TLS reports) are none.
 */
function reportPartOf(mail: InboundMail): ReportPart | null {
  const reportType = reportTypeOf(mail);
  const find = (types: string[]) => mail.files.find((f) => types.includes(f.contentType.toLowerCase()));
  const delivery = find(DELIVERY_STATUS);
  const feedback = find(FEEDBACK_REPORT);
  const declared = reportType === "delivery-status" || reportType === "feedback-report";
  if (reportType === "delivery-status")
    return delivery ? { type: "delivery", file: delivery, declared } : null;
  if (reportType === "feedback-report")
    return feedback ? { type: "feedback", file: feedback, declared } : null;
  if (feedback) return { type: "feedback", file: feedback, declared };
  return delivery ? { type: "delivery", file: delivery, declared } : null;
}

async function partReport(
  mail: InboundMail,
  part: ReportPart,
  original: Awaited<ReturnType<typeof originalOf>>,
  envelopeRecipient: string | null,
): Promise<MailReport> {
  const groups = await fieldGroups(new TextDecoder().decode(part.file.bytes));
  const originalMessageId = ownMessageId(original?.messageId);
  if (part.type === "feedback") {
    const to = (original?.to ?? []).map((a) => a.address ?? "");
    const recipients = await feedbackRecipients(mail, groups.flat(), to, envelopeRecipient);
    return {
      type: "feedback",
      format: "arf",
      reportingMta: mtaName(fieldOf(groups.flat(), "reporting-mta")),
      recipients: recipients.slice(0, MAX_RECIPIENTS),
      originalMessageId,
      declared: part.declared,
    };
  }
  return {
    type: "delivery_status",
    format: "rfc3464",
    ...deliveryFields(groups),
    originalMessageId,
    declared: part.declared,
  };
}

/**
 * Hotmail's older complaint notices (JMRP, "complaint about message from <ip>" from
 * staff@hotmail.com) have no feedback-report part: the returned original names the complainant
 * in `X-HmXmrOriginalRecipient`, or, when the parser shows it inline, in its `To:`.
 */
function hotmailComplaint(
  mail: InboundMail,
  original: Awaited<ReturnType<typeof originalOf>>,
): MailReport | null {
  if (mail.from?.address !== "staff@hotmail.com" || !/^\s*complaint about message/i.test(mail.subject))
    return null;
  const named = addressOf(fieldOf(original?.headers ?? [], "x-hmxmroriginalrecipient"));
  // `[ \t]`, not `\s`: a run of blank lines before each line start cost time quadratic in it.
  const to = original?.to?.map((a) => a.address ?? "") ?? [
    /^[ \t]*To:[ \t]*(.+)$/im.exec((mail.text ?? "").slice(0, MAX_COMPLAINT_TEXT))?.[1] ?? "",
  ];
  const addresses = named ? [named] : to.map(addressOf).filter((a): a is string => a !== null);
  if (addresses.length !== 1) return null;
  const diagnostic = `Feedback report (abuse) from ${mail.from.address}`;
  return {
    type: "feedback",
    format: "arf",
    reportingMta: null,
    recipients: addresses.map((address) => ({
      address,
      action: "complaint",
      status: null,
      replyCode: null,
      diagnostic,
      kind: "complaint" as const,
    })),
    originalMessageId: ownMessageId(original?.messageId),
    declared: false,
  };
}

/**
 * OpenSMTPD's delivery-status part says only `Status: 5.0.0` ("failed, no detail"), its text the
 * reply each recipient got: a recipient whose status has no detail takes the one its lines in the
 * text give (`552 5.2.2 ... Mailbox full`), when they give one of the same class (a 4.x.x in a
 * transcript is an earlier attempt, not the failure).
 */
function withNoticeDetail(mail: InboundMail, report: MailReport): MailReport {
  const vague = (r: ReportedRecipient) =>
    r.kind !== null && r.action === "failed" && /^[45]\.0\.0$/.test(r.status ?? "");
  if (report.type !== "delivery_status" || !report.recipients.some(vague)) return report;
  const inText = noticeRecipients(mail, splitNotice(mail), null, null);
  const recipients = report.recipients.map((r) => {
    const told = vague(r)
      ? inText.find((t) => t.address === r.address && t.status?.[0] === r.status?.[0] && !vague(t))
      : undefined;
    return told
      ? { ...r, status: told.status, replyCode: told.replyCode, diagnostic: told.diagnostic, kind: told.kind }
      : r;
  });
  return { ...report, recipients };
}

/**
 * RFC 3464 fields a notice quotes in its text (Amazon WorkMail's "Technical report:"), or that a
 * multipart the parser could not split still holds (its delivery-status part as plain lines, read
 * whole: the notice's cut at the first header-like line would stop at `X-Actual-Recipient`).
 */
async function quotedFields(text: string) {
  const at = QUOTED_FIELDS.exec(text)?.index;
  if (at === undefined) return null;
  const fields = deliveryFields(await fieldGroups(text.slice(at)));
  return fields.recipients.length > 0 ? fields : null;
}

/** A delivery-failure notice that is no RFC 3464 report, read from its text (see plain-notice.ts). */
async function noticeReport(
  mail: InboundMail,
  original: Awaited<ReturnType<typeof originalOf>>,
  envelopeRecipient: string | null,
  options: ReadOptions,
): Promise<MailReport | null> {
  const text = splitNotice(mail);
  if (!isFailureNotice(mail, text.notice, options.mailFrom)) return null;
  const originalMessageId = ownMessageId(original?.messageId ?? quotedMessageId(text.returned));
  if (options.inbox && !(sentByDaemon(mail, options.mailFrom) && originalMessageId)) return null;
  const quoted = (await quotedFields(text.notice)) ?? (await quotedFields(mail.unreadBody ?? ""));
  const recipients = quoted
    ? quoted.recipients
    : noticeRecipients(mail, text, original?.from?.address?.toLowerCase() ?? null, envelopeRecipient);
  return {
    type: "delivery_status",
    format: "plain",
    reportingMta: quoted?.reportingMta ?? noticeHost(mail),
    recipients,
    originalMessageId,
    declared: false,
  };
}

/**
 * A bounce (RFC 3464 `delivery-status`, or a delivery-failure notice in prose) or a complaint
 * (RFC 5965 `feedback-report`) in a parsed mail, with the recipients it is about; null when the
 * mail is none of these. `envelopeRecipient` is the recipient the report's bounce address
 * names, when it names one (see `namedRecipient`).
 */
export async function readReport(
  mail: InboundMail,
  envelopeRecipient: string | null = null,
  options: ReadOptions = {},
): Promise<MailReport | null> {
  const [part, original] = [reportPartOf(mail), await originalOf(mail)];
  const structured = part
    ? withNoticeDetail(mail, await partReport(mail, part, original, envelopeRecipient))
    : null;
  if (structured?.recipients.length || structured?.type === "feedback") return structured;
  const hotmail = hotmailComplaint(mail, original);
  if (hotmail) return hotmail;
  // A declared report of another type (a read receipt, a TLS report) is no bounce in prose either.
  const reportType = reportTypeOf(mail);
  if (reportType && reportType !== "delivery-status" && reportType !== "feedback-report") return null;
  // A delivery-status part that is empty or unreadable (Google Workspace, SurfControl): the
  // notice's text may still say who failed; the mail is still the report it declares itself.
  const notice = await noticeReport(mail, original, envelopeRecipient, options);
  return notice ? { ...notice, declared: part?.declared ?? false } : structured;
}
