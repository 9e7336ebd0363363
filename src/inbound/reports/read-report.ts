import PostalMime, { type Header } from "postal-mime";
import type { BounceKind } from "../../features/suppressions/bounces";
import { oneLine } from "../../lib/text";
import { isValidAddress } from "../../mail/address";
import { type InboundFile, type InboundMail, ownMessageId } from "../parse";

/** One recipient a report is about, and what it counts as (null: nothing to act on). */
export interface ReportedRecipient {
  address: string;
  /** RFC 3464 `Action` (failed, delayed, delivered, relayed, expanded); `complaint` for ARF. */
  action: string;
  /** The enhanced status code (RFC 3463), when given. */
  status: string | null;
  /** The SMTP reply code (`550`), when the report quotes one. */
  replyCode: string | null;
  /** What the report says happened, one line: status, Diagnostic-Code or the feedback type. */
  diagnostic: string;
  kind: BounceKind | null;
}

export interface MailReport {
  type: "delivery_status" | "feedback";
  /** How it was read: an RFC 3464/6522 report, an RFC 5965 (ARF) one, or a plain-text notice. */
  format: "rfc3464" | "arf" | "plain";
  /** The server that wrote the report: `Reporting-MTA`, else the notice's sending host, when known. */
  reportingMta: string | null;
  recipients: ReportedRecipient[];
  /** The Message-ID of the returned original (its whole message or its headers), when included. */
  originalMessageId: string | null;
}

const MAX_RECIPIENTS = 100;
const MAX_DIAGNOSTIC = 1000;
const STATUS_CODE = /\b([245])\.\d{1,3}\.\d{1,3}\b/;
/** An SMTP reply code opening a diagnostic (`smtp; 550 5.1.1 ...`). */
const REPLY_CODE = /(?:^|;\s*|\s)([245]\d\d)(?=[\s-]|$)/;
/** ARF feedback types that mean the recipient did not want the mail (RFC 5965 §7.3). */
const COMPLAINTS = new Set(["abuse", "fraud"]);
const ORIGINAL_TYPES = new Set([
  "message/rfc822",
  "text/rfc822-headers",
  "message/global",
  "message/global-headers",
]);

const fieldOf = (headers: Header[], name: string) => headers.find((h) => h.key === name)?.value.trim() ?? "";

/** `rfc822; Ada@Example.com` or `<ada@example.com>`: the address, lowercased. */
function addressOf(value: string): string | null {
  const bare = value.includes(";") ? value.slice(value.indexOf(";") + 1) : value;
  const address = bare.trim().replace(/^<|>$/g, "").toLowerCase();
  return isValidAddress(address) ? address : null;
}

/**
 * The field groups of a `message/delivery-status` or `message/feedback-report` body. Their
 * syntax is that of message headers (RFC 3464 §2.1, RFC 5965 §3.1), so each blank-line-separated
 * group is read by the same MIME parser as mail headers: folding and encoded words done right.
 */
async function fieldGroups(file: InboundFile): Promise<Header[][]> {
  const text = new TextDecoder().decode(file.bytes).replace(/\r?\n/g, "\r\n");
  // The per-message group and at most MAX_RECIPIENTS recipients are read: a report of a
  // million groups costs no more than one of a hundred.
  const groups = text
    .split(/\r\n[ \t]*\r\n/)
    .filter((g) => g.trim() !== "")
    .slice(0, MAX_RECIPIENTS + 1);
  return Promise.all(groups.map(async (g) => (await PostalMime.parse(`${g}\r\n\r\n`)).headers));
}

function kindOf(action: string, status: string | null): BounceKind | null {
  if (action === "delayed") return "soft";
  if (action !== "failed") return null;
  return status?.startsWith("4") ? "soft" : "hard";
}

function deliveryRecipient(fields: Header[]): ReportedRecipient | null {
  const address =
    addressOf(fieldOf(fields, "final-recipient")) ?? addressOf(fieldOf(fields, "original-recipient"));
  const action = fieldOf(fields, "action").toLowerCase();
  if (!address || !action) return null;
  const diagnosticCode = oneLine(fieldOf(fields, "diagnostic-code"));
  const status =
    STATUS_CODE.exec(fieldOf(fields, "status"))?.[0] ?? STATUS_CODE.exec(diagnosticCode)?.[0] ?? null;
  const diagnostic = [status, action, diagnosticCode].filter(Boolean).join(" ").slice(0, MAX_DIAGNOSTIC);
  const replyCode = REPLY_CODE.exec(diagnosticCode)?.[1] ?? null;
  return { address, action, status, replyCode, diagnostic, kind: kindOf(action, status) };
}

async function originalOf(mail: InboundMail) {
  const part = mail.files.find((f) => ORIGINAL_TYPES.has(f.contentType.toLowerCase()));
  if (!part) return null;
  // Only its header block is wanted (Message-ID, To): the body, up to the whole message, is not parsed.
  const text = new TextDecoder().decode(part.bytes);
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

/** `dns; mx.example.com` → `mx.example.com`; null when empty. */
function mtaName(value: string): string | null {
  const name = oneLine(value.includes(";") ? value.slice(value.indexOf(";") + 1) : value).trim();
  return name ? name.slice(0, 255) : null;
}

/** The report type a `multipart/report` names (RFC 6522), lowercased; null for other mail. */
function reportTypeOf(mail: InboundMail): string | null {
  const contentType = fieldOf(mail.headers, "content-type").toLowerCase();
  if (!contentType.startsWith("multipart/report")) return null;
  return /report-type\s*=\s*"?([a-z0-9-]+)"?/.exec(contentType)?.[1] ?? "";
}

/**
 * A bounce (RFC 3464 `delivery-status`) or complaint (RFC 5965 `feedback-report`) in a parsed
 * mail, with the recipients it is about; null when the mail is no such report. `envelopeRecipient`
 * is the recipient the report's bounce address names, when it names one (see `namedRecipient`).
 */
export async function readReport(
  mail: InboundMail,
  envelopeRecipient: string | null = null,
): Promise<MailReport | null> {
  const reportType = reportTypeOf(mail);
  const wanted =
    reportType === "delivery-status"
      ? ["message/delivery-status", "message/global-delivery-status"]
      : reportType === "feedback-report"
        ? ["message/feedback-report"]
        : null;
  const body = wanted && mail.files.find((f) => wanted.includes(f.contentType.toLowerCase()));
  if (!body) return null;
  const [groups, original] = await Promise.all([fieldGroups(body), originalOf(mail)]);
  const originalMessageId = ownMessageId(original?.messageId);
  if (reportType === "feedback-report") {
    const to = (original?.to ?? []).map((a) => a.address ?? "");
    const recipients = await feedbackRecipients(mail, groups.flat(), to, envelopeRecipient);
    return {
      type: "feedback",
      format: "arf",
      reportingMta: mtaName(fieldOf(groups.flat(), "reporting-mta")),
      recipients: recipients.slice(0, MAX_RECIPIENTS),
      originalMessageId,
    };
  }
  // The first group is about the message, each further one about one recipient.
  const recipients = groups
    .slice(1)
    .map(deliveryRecipient)
    .filter((r) => r !== null)
    .slice(0, MAX_RECIPIENTS);
  return {
    type: "delivery_status",
    format: "rfc3464",
    reportingMta: mtaName(fieldOf(groups[0] ?? [], "reporting-mta")),
    recipients,
    originalMessageId,
  };
}
