import PostalMime, { type Header } from "postal-mime";
import type { BounceKind } from "../../features/suppressions/bounces";
import { oneLine } from "../../lib/text";
import { isValidAddress } from "../../mail/address";
import { EXPIRED, MAILBOX_FULL } from "./bounce-phrases";
import type { ReportedRecipient } from "./report-types";

export const MAX_RECIPIENTS = 100;
export const MAX_DIAGNOSTIC = 1000;
/**
 * What is read of a delivery-status or feedback-report part: a hundred recipients' fields take
 * tens of KB. A part of megabytes without a blank line was one group over the MIME parser's
 * header limit, and made every delivery of the report throw.
 */
const MAX_FIELDS_TEXT = 128 * 1024;
export const STATUS_CODE = /\b([245])\.\d{1,3}\.\d{1,3}\b/;
/** An SMTP reply code opening a diagnostic (`smtp; 550 5.1.1 ...`). */
export const REPLY_CODE = /(?:^|;\s*|\s)([245]\d\d)(?=[\s-]|$)/;

export const fieldOf = (headers: Header[], name: string) =>
  headers.find((h) => h.key === name)?.value.trim() ?? "";

/**
 * `rfc822; Ada@Example.com` or `<ada@example.com>`: the address, lowercased. Exim names a pipe
 * or file delivery with its address inside (`|/usr/bin/prog ada@example.com`): that address.
 */
export function addressOf(value: string): string | null {
  const bare = value.includes(";") ? value.slice(value.indexOf(";") + 1) : value;
  const address = bare.trim().replace(/^<|>$/g, "").toLowerCase();
  if (isValidAddress(address)) return address;
  const inside = /^[|/]/.test(address)
    ? address.split(/\s+/).find((w) => w.includes("@") && isValidAddress(w))
    : null;
  return inside ?? null;
}

/**
 * The field groups of a `message/delivery-status` or `message/feedback-report` body (or of the
 * same fields quoted in a notice's text). Their syntax is that of message headers (RFC 3464
 * §2.1, RFC 5965 §3.1), so each blank-line-separated group is read by the same MIME parser as
 * mail headers: folding and encoded words done right.
 */
export async function fieldGroups(text: string): Promise<Header[][]> {
  // The per-message group and at most MAX_RECIPIENTS recipients are read, from the first
  // MAX_FIELDS_TEXT: a report of a million groups, or of one group of megabytes, costs no more
  // than one of a hundred recipients.
  const groups = separateRecipients(text.slice(0, MAX_FIELDS_TEXT).replace(/\r?\n/g, "\r\n"))
    .split(/\r\n[ \t]*\r\n/)
    .map((g) => g.replace(/^(\r\n)+/, ""))
    .filter((g) => g.trim() !== "")
    .slice(0, MAX_RECIPIENTS + 1);
  return Promise.all(groups.map(headersOf));
}

/** A group's fields; none when the parser cannot read them (a group is the sender's to garble). */
async function headersOf(group: string): Promise<Header[]> {
  try {
    return (await PostalMime.parse(`${group}\r\n\r\n`)).headers;
  } catch {
    return [];
  }
}

/**
 * Some servers (AOL among them) write recipient groups without the blank line between them: a
 * second `Final-Recipient` in one group begins a group of its own.
 */
function separateRecipients(text: string): string {
  let named = false;
  return text
    .split("\r\n")
    .map((line) => {
      if (line.trim() === "") named = false;
      if (!/^final-recipient\s*:/i.test(line)) return line;
      const second = named;
      named = true;
      return second ? `\r\n${line}` : line;
    })
    .join("\r\n");
}

/** A group about one recipient names them (the per-message group names the reporting server). */
export const isRecipientGroup = (fields: Header[]) =>
  fields.some((h) => h.key === "final-recipient" || h.key === "original-recipient");

/**
 * `Action` as written; without one (seen in the wild), what the `Status` class says: 5 failed,
 * 4 delayed, 2 delivered (RFC 3464 §2.3.4 makes the two agree). Empty when neither says.
 */
function actionOf(fields: Header[], status: string | null): string {
  const action = fieldOf(fields, "action").toLowerCase();
  // SendGrid's `expired`: given up after retrying, a failure.
  if (action === "expired") return "failed";
  if (action) return action;
  return { "5": "failed", "4": "delayed", "2": "delivered" }[status?.[0] ?? ""] ?? "";
}

/**
 * A failure is hard unless it is temporary (4.x.x) or about the message rather than the address:
 * a full mailbox (X.2.2, or said in words) or a message over the size limit (X.2.3) may take the
 * next one, so these count soft, and repeated soft bounces still suppress.
 */
export function kindOf(action: string, status: string | null, diagnostic = ""): BounceKind | null {
  if (action === "delayed") return "soft";
  if (action !== "failed") return null;
  if (/^[45]\.2\.[23]$/.test(status ?? "") || MAILBOX_FULL.test(diagnostic)) return "soft";
  if (EXPIRED.test(diagnostic) && !status?.startsWith("5")) return "soft";
  return status?.startsWith("4") ? "soft" : "hard";
}

/**
 * `Status`, else the enhanced code of the diagnostic. When the remote server's own reply (`550
 * 5.5.0 ...` in Diagnostic-Code, reply and code of one class) disagrees in class with the Status
 * the reporting server wrote (4.5.0), the remote's words are the better evidence.
 */
function statusOf(field: string, diagnosticCode: string): string | null {
  const written = STATUS_CODE.exec(field)?.[0] ?? null;
  const remote = STATUS_CODE.exec(diagnosticCode)?.[0] ?? null;
  const reply = REPLY_CODE.exec(diagnosticCode)?.[1] ?? null;
  const remoteAgrees = remote !== null && reply?.[0] === remote[0];
  if (written && remoteAgrees && written[0] !== remote?.[0]) return remote;
  return written ?? remote;
}

export function deliveryRecipient(fields: Header[]): ReportedRecipient | null {
  const address =
    addressOf(fieldOf(fields, "final-recipient")) ?? addressOf(fieldOf(fields, "original-recipient"));
  const diagnosticCode = oneLine(fieldOf(fields, "diagnostic-code"));
  const status = statusOf(fieldOf(fields, "status"), diagnosticCode);
  const action = actionOf(fields, status);
  if (!address || !action) return null;
  const diagnostic = [status, action, diagnosticCode].filter(Boolean).join(" ").slice(0, MAX_DIAGNOSTIC);
  const replyCode = REPLY_CODE.exec(diagnosticCode)?.[1] ?? null;
  // An expiry without a 5.x.x is a run of temporary failures (RFC 3463 4.4.7).
  const expired = fieldOf(fields, "action").toLowerCase() === "expired" && !status?.startsWith("5");
  const kind = expired ? "soft" : kindOf(action, status, diagnosticCode);
  return { address, action, status, replyCode, diagnostic, kind };
}

/** `dns; mx.example.com` → `mx.example.com`; null when empty. */
export function mtaName(value: string): string | null {
  const name = oneLine(value.includes(";") ? value.slice(value.indexOf(";") + 1) : value).trim();
  return name ? name.slice(0, 255) : null;
}

/**
 * The recipients and reporting server of delivery-status field groups. Normally the first group
 * is about the message and each further one about one recipient; some servers leave the
 * per-message group out, and then the first group already names a recipient.
 */
export function deliveryFields(groups: Header[][]) {
  const perMessage = groups[0] && !isRecipientGroup(groups[0]) ? groups[0] : [];
  const recipients = groups
    .filter(isRecipientGroup)
    .map(deliveryRecipient)
    .filter((r) => r !== null)
    .slice(0, MAX_RECIPIENTS);
  const reportingMta = mtaName(
    fieldOf(perMessage, "reporting-mta") || fieldOf(groups.flat(), "reporting-mta"),
  );
  return { recipients, reportingMta };
}
