/**
 * Turns a raw RFC 5322 message and its SMTP envelope (what the relay received) into the same
 * NormalizedEmail that POST /v1/emails produces, so every rule and the one MIME builder apply.
 *
 * Why parse and rebuild instead of passing the bytes through: the service's message is what it
 * tracks (open pixel, click links), DKIM-signs and stores for GET /v1/emails/{id}/content, and the
 * builder is the one place that guarantees a 7-bit, injection-free header block and no Bcc header.
 * What survives: From, To, Cc, Reply-To, Subject, Message-ID, every other header (first occurrence),
 * the text and HTML bodies, attachments and inline (cid:) parts. What does not: trace headers
 * (Received, Return-Path), an old DKIM-Signature, Bcc, Date (set when sent) and the MIME layout.
 */
import PostalMime, { type Address, type Attachment, type Email } from "postal-mime";
import { base64Decode } from "../../lib/crypto";
import { AppError } from "../../lib/errors";
import { oneLine } from "../../lib/text";
import { domainOf, isValidAddress, type MailAddress } from "../../mail/address";
import { contentIdProblem, headersProblem, subjectProblem } from "../../mail/mime/checks";
import { checkMediaType } from "../../mail/mime/params";
import { MAX_MESSAGE_BYTES } from "./emails.checks";
import type { NormalizedEmail } from "./emails.input";

export interface RawEnvelope {
  mailFrom: string;
  rcptTo: string[];
}

/** Headers rebuilt or dropped instead of copied: hop traces, the old signature, our own switch. */
const NOT_COPIED = new Set([
  "received",
  "return-path",
  "delivered-to",
  "x-track-opens",
  "dkim-signature",
  "arc-seal",
  "arc-message-signature",
  "arc-authentication-results",
  "authentication-results",
]);
const MESSAGE_ID = /^<[!-;=?-~]+@[!-;=?-~]+>$/;
const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

const invalid = (message: string, path: string) =>
  new AppError(400, "validation_error", "Invalid request", `${path}: ${message}`, {
    details: [{ path, message }],
  });

/** The `raw` field's bytes; a 400 instead of atob's exception for malformed base64. */
export function decodeRaw(base64: string): Uint8Array {
  try {
    return base64Decode(base64.replace(/\s+/g, ""));
  } catch {
    throw invalid("must be base64", "body.raw");
  }
}

/** `X-Track-Opens: true|1|yes|on` → true, `false|0|no|off` → false, absent → the account default. */
export function trackOpensHeader(value: string | undefined): boolean | undefined {
  const word = value?.trim().toLowerCase();
  if (word === undefined) return undefined;
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return undefined;
}

const mailboxes = (list: Address[] | undefined): MailAddress[] =>
  (list ?? [])
    .flatMap((a) => (a.group ? a.group : [a]))
    .filter((a) => isValidAddress(a.address))
    .map((a) => {
      // A decoded display name may hold line breaks (an encoded-word can carry any byte).
      const name = oneLine(a.name);
      return name ? { name, address: a.address } : { address: a.address };
    });

/** Each copied header once (the first occurrence), unfolded; malformed ones are left out. */
function copiedHeaders(parsed: Email): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { key, line } of parsed.headerLines) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim();
    const lower = key.toLowerCase();
    if (colon < 0 || seen.has(lower) || NOT_COPIED.has(lower)) continue;
    seen.add(lower);
    const value = line
      .slice(colon + 1)
      .replace(/\r?\n[ \t]*/g, " ")
      .trim();
    // Structural headers (From, To, Content-*...) are rebuilt from the parsed message; a header
    // the builder could not write safely is left out rather than failing the message.
    if (!headersProblem({ [name]: value })) headers[name] = value;
  }
  return headers;
}

function attachmentsOf(parsed: Email): NormalizedEmail["attachments"] {
  return parsed.attachments.map((a: Attachment, i) => {
    const bytes =
      typeof a.content === "string" ? new TextEncoder().encode(a.content) : new Uint8Array(a.content);
    let contentType = "application/octet-stream";
    try {
      contentType = checkMediaType(a.mimeType);
    } catch {
      // An unusable media type still delivers the bytes, as a generic file.
    }
    const cid = a.contentId?.replace(/^<|>$/g, "").trim();
    const inline = Boolean(cid) && (a.disposition === "inline" || a.related === true);
    return {
      filename: a.filename?.trim() || `attachment-${i + 1}`,
      contentType,
      contentId: inline && cid && /^[^\s<>]{1,255}$/.test(cid) && !contentIdProblem(cid) ? cid : null,
      size: bytes.length,
      content: { bytes },
    };
  });
}

/**
 * Parses the message and decides its recipients from the envelope alone: header To and Cc keep
 * only the addresses the envelope names, and every other envelope recipient is a Bcc, so a blind
 * copy is delivered and never written into a header.
 */
export async function normalizeRaw(raw: Uint8Array, envelope: RawEnvelope): Promise<NormalizedEmail> {
  if (raw.byteLength > MAX_MESSAGE_BYTES) {
    throw new AppError(413, "message_too_large", "Message too large", "The message exceeds 25 MB.", {
      limit: MAX_MESSAGE_BYTES,
    });
  }
  const parsed = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  const envelopeSet = new Set(envelope.rcptTo.map((a) => a.toLowerCase()));
  const inEnvelope = (a: MailAddress) => envelopeSet.has(a.address.toLowerCase());
  const to = mailboxes(parsed.to).filter(inEnvelope);
  const named = new Set(to.map((a) => a.address.toLowerCase()));
  const cc = mailboxes(parsed.cc).filter((a) => inEnvelope(a) && !named.has(a.address.toLowerCase()));
  for (const a of cc) named.add(a.address.toLowerCase());
  const bcc = [...envelopeSet].filter((a) => !named.has(a)).map((address) => ({ address }));

  const [from] = mailboxes(parsed.from ? [parsed.from] : []);
  const sender = from ?? (isValidAddress(envelope.mailFrom) ? { address: envelope.mailFrom } : null);
  if (!sender) throw invalid("the message has no valid From address, nor the envelope", "body.raw");
  const subject = (parsed.subject ?? "").replace(/[\r\n]+/g, " ");
  const subjectIssue = subjectProblem(subject);
  if (subjectIssue) throw invalid(`the Subject cannot be sent: ${subjectIssue}`, "body.raw");
  const trackHeader = parsed.headers.find((h) => h.key === "x-track-opens")?.value;
  const messageId = parsed.messageId?.trim();

  return {
    from: sender,
    fromDomain: domainOf(sender.address),
    to,
    cc,
    bcc,
    replyTo: mailboxes(parsed.replyTo),
    recipients: [...envelopeSet],
    subject,
    html: parsed.html ?? null,
    text: parsed.text ?? null,
    headers: copiedHeaders(parsed),
    tags: [],
    attachments: attachmentsOf(parsed),
    scheduledAt: null,
    trackOpens: trackOpensHeader(trackHeader),
    trackClicks: undefined,
    ...(messageId && MESSAGE_ID.test(messageId) ? { messageId } : {}),
  };
}
