/** Assembles a complete RFC 5322 message from a MimeMessage; pure, no I/O. */
import { formatAddress, type MailAddress } from "../address";
import { customHeaderLines } from "./custom-headers";
import { CRLF } from "./encoding";
import { foldHeader, formatDate, subjectLine } from "./fold";
import { attachmentPart, type MimePart, multipart, serializePart, textPart } from "./parts";
import type { MimeMessage } from "./types";

const MESSAGE_ID = /^<[!-;=?-~]+@[!-;=?-~]+>$/;

/**
 * text and html → alternative, text first so that clients prefer the richer last part. With
 * neither, an empty text part keeps an attachment-only message well formed.
 */
function bodyPart(message: MimeMessage): MimePart {
  const { text, html } = message;
  if (text !== undefined && html !== undefined) {
    return multipart("alternative", [textPart("plain", text), textPart("html", html)]);
  }
  if (html !== undefined) return textPart("html", html);
  return textPart("plain", text ?? "");
}

/** The body, inside multipart/related when there are inline parts and multipart/mixed when files. */
function rootPart(message: MimeMessage): MimePart {
  let root = bodyPart(message);
  const inline = message.attachments.filter((a) => a.contentId !== undefined);
  const files = message.attachments.filter((a) => a.contentId === undefined);
  if (inline.length > 0) {
    const parts = inline.map((a) => attachmentPart(a, "inline"));
    // RFC 2387 requires `type`: the media type of the root part that references the others.
    root = multipart("related", [root, ...parts], ` type="${root.mediaType}";`);
  }
  if (files.length > 0) {
    root = multipart("mixed", [root, ...files.map((a) => attachmentPart(a, "attachment"))]);
  }
  return root;
}

function addressHeader(name: string, addresses: MailAddress[]): string[] {
  return addresses.length === 0 ? [] : [foldHeader(name, addresses.map(formatAddress).join(", "))];
}

/**
 * The message as CRLF-terminated 7-bit lines of at most 998 characters (78 in bodies). Throws on
 * input that would corrupt the header block: invalid addresses or message id, line breaks in the
 * subject, and custom headers that are malformed, carry line breaks, or shadow structural ones.
 * Never writes Bcc. checks.ts runs the same code on input, so accepted emails never fail here.
 */
export function buildMime(message: MimeMessage): string {
  if (!MESSAGE_ID.test(message.messageId)) {
    throw new Error(`Invalid Message-ID ${JSON.stringify(message.messageId)}: expected <local@domain>.`);
  }
  const subject = subjectLine(message.subject);
  const custom = customHeaderLines(message.headers);
  const root = rootPart(message);
  const headers = [
    foldHeader("From", formatAddress(message.from)),
    ...addressHeader("To", message.to),
    ...addressHeader("Cc", message.cc),
    ...addressHeader("Reply-To", message.replyTo),
    subject,
    `Date: ${formatDate(message.date)}`,
    `Message-ID: ${message.messageId}`,
    "MIME-Version: 1.0",
    ...custom,
    ...root.headers,
  ];
  return `${serializePart({ ...root, headers })}${CRLF}`;
}
