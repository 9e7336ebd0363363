import { base64Decode, isBase64 } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { domainOf, formatAddress, type MailAddress, parseAddress } from "../../mail/address";
import { contentIdProblem, headersProblem, mediaTypeProblem, subjectProblem } from "../../mail/mime/checks";
import type { SendEmailInput } from "./emails.schemas";

export interface EmailAttachment {
  filename: string;
  contentType: string;
  contentId: string | null;
  size: number;
  /**
   * The bytes, to be stored with the email; or the R2 key where they already are (a ticket
   * message's file, which its reply sends without a second copy).
   */
  content: { bytes: Uint8Array } | { key: string };
}

/** What one accepted email is, once its input has been checked and decoded. */
export interface NormalizedEmail {
  from: MailAddress;
  fromDomain: string;
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
  replyTo: MailAddress[];
  /** Distinct lowercase addresses of to, cc and bcc: the SMTP envelope. */
  recipients: string[];
  subject: string;
  html: string | null;
  text: string | null;
  headers: Record<string, string>;
  tags: Array<{ name: string; value: string }>;
  attachments: EmailAttachment[];
  scheduledAt: number | null;
  trackOpens: boolean | undefined;
  trackClicks: boolean | undefined;
  /** The client's own Message-ID (relayed mail keeps it); otherwise one is made from the email id. */
  messageId?: string;
  /** The campaign the email is sent for (its opens, clicks and bounces count in its stats). */
  campaignId?: string;
  /** The template and published version its content was built from (and the layout's, if any). */
  template?: { id: string; versionId: string; layout?: { id: string; versionId: string } };
}

const MAX_SCHEDULE_AHEAD_MS = 30 * 86_400_000;

const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  txt: "text/plain",
  csv: "text/csv",
  html: "text/html",
  ics: "text/calendar",
  json: "application/json",
  zip: "application/zip",
};

export function guessContentType(filename: string): string {
  const extension = filename.split(".").pop()?.toLowerCase() ?? "";
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

/** Collects every problem of one email so the 400 lists them all at once. */
class Problems {
  readonly details: Array<{ path: string; message: string }> = [];
  constructor(private readonly prefix: string) {}
  add(path: string, message: string) {
    this.details.push({ path: `${this.prefix}${path}`, message });
  }
}

function addresses(value: string | string[] | undefined, path: string, problems: Problems): MailAddress[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.flatMap((text, i) => {
    const parsed = parseAddress(text);
    if (!parsed)
      problems.add(
        Array.isArray(value) ? `${path}.${i}` : path,
        `${JSON.stringify(text)} is not an email address`,
      );
    return parsed ? [parsed] : [];
  });
}

/**
 * Checks what zod cannot (addresses, schedule) and, for callers other than the API's schemas,
 * everything the MIME builder would refuse; then decodes the email.
 */
export function normalizeEmail(input: SendEmailInput, now: number, prefix = "body."): NormalizedEmail {
  const problems = new Problems(prefix);
  const [from] = addresses(input.from, "from", problems);
  const to = addresses(input.to, "to", problems);
  const cc = addresses(input.cc, "cc", problems);
  const bcc = addresses(input.bcc, "bcc", problems);
  const replyTo = addresses(input.reply_to, "reply_to", problems);
  if (to.length === 0 && Array.isArray(input.to)) problems.add("to", "name at least one recipient");

  const subjectIssue = subjectProblem(input.subject);
  if (subjectIssue) problems.add("subject", subjectIssue);
  const headers = input.headers ?? {};
  const headersIssue = headersProblem(headers);
  if (headersIssue) problems.add("headers", headersIssue);

  const attachments = (input.attachments ?? []).flatMap((attachment, i) => {
    const contentType = attachment.content_type ?? guessContentType(attachment.filename);
    const checks: Array<[string, string | null]> = [
      ["content", isBase64(attachment.content) ? null : "must be base64"],
      ["content_type", mediaTypeProblem(contentType)],
      ["content_id", attachment.content_id ? contentIdProblem(attachment.content_id) : null],
    ];
    let valid = true;
    for (const [field, message] of checks) {
      if (message) problems.add(`attachments.${i}.${field}`, message);
      valid &&= !message;
    }
    if (!valid) return [];
    const bytes = base64Decode(attachment.content.replace(/\s+/g, ""));
    return [
      {
        filename: attachment.filename,
        contentType,
        contentId: attachment.content_id ?? null,
        size: bytes.length,
        content: { bytes },
      },
    ];
  });

  let scheduledAt: number | null = null;
  if (input.scheduled_at) {
    const at = Date.parse(input.scheduled_at);
    if (at > now + MAX_SCHEDULE_AHEAD_MS) problems.add("scheduled_at", "must be at most 30 days ahead");
    else if (at > now) scheduledAt = at;
  }

  if (problems.details.length > 0 || !from) {
    const summary = problems.details.map((d) => `${d.path}: ${d.message}`).join("; ");
    throw new AppError(400, "validation_error", "Invalid request", summary, { details: problems.details });
  }
  const recipients = [...new Set([...to, ...cc, ...bcc].map((a) => a.address.toLowerCase()))];
  return {
    from,
    fromDomain: domainOf(from.address),
    to,
    cc,
    bcc,
    replyTo,
    recipients,
    subject: input.subject,
    html: input.html ?? null,
    text: input.text ?? null,
    headers,
    tags: input.tags ?? [],
    attachments,
    scheduledAt,
    trackOpens: input.track_opens,
    trackClicks: input.track_clicks,
  };
}

/** The header form of each address list, as stored and shown. */
export const formatList = (list: MailAddress[]) => list.map(formatAddress);

/**
 * An upper bound of the built message's size: base64 grows attachments by 4/3 plus line breaks,
 * quoted-printable grows text by at most 3x but ~1.1x in practice, plus headers and boundaries.
 */
export function estimateSize(email: NormalizedEmail): number {
  const bodies = ((email.text?.length ?? 0) + (email.html?.length ?? 0)) * 1.2;
  const files = email.attachments.reduce((sum, a) => sum + Math.ceil(a.size / 57) * 78 + 400, 0);
  return Math.ceil(8_192 + bodies + files);
}
