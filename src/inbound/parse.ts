import PostalMime, { type Address, type Attachment, type Header } from "postal-mime";
import { oneLine } from "../lib/text";
import { isValidAddress } from "../mail/address";
import { contentIdProblem, mediaTypeProblem, subjectProblem } from "../mail/mime/checks";

export interface InboundFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
  /** Without angle brackets; set for inline parts that the HTML names as `cid:`. */
  contentId: string | null;
}

/** A received message as the rest of src/inbound/ needs it: decoded, addresses lowercased. */
export interface InboundMail {
  from: { address: string; name: string | null } | null;
  to: string[];
  cc: string[];
  subject: string;
  messageId: string | null;
  /** In-Reply-To, then References newest first: the order threading tries them in. */
  parentIds: string[];
  text: string | null;
  html: string | null;
  files: InboundFile[];
  headers: Header[];
  /**
   * The body as plain lines when the MIME parser found no text, HTML or part in it (a multipart
   * whose boundary matches none of its delimiters, as some servers' notices have): what a bounce
   * reader can still read. Null when the parser found anything.
   */
  unreadBody: string | null;
}

/** What a stored message keeps of long lists; the raw message keeps all. */
const MAX_ADDRESSES = 100;
const MAX_PARENT_IDS = 50;
const MAX_ID_LENGTH = 250;
/**
 * Attachments (and inline parts) stored as the message's files, in the order they come. Each is
 * one R2 put, and an invocation has 1,000 subrequests: past that the handler failed on every
 * retry. The raw message, kept in R2 whole, still holds the rest.
 */
export const MAX_STORED_ATTACHMENTS = 100;
const MESSAGE_ID = /<[^<>\s]+>/g;

const mailboxes = (list: Address[] | undefined): Array<{ address: string; name: string }> =>
  (list ?? []).flatMap((a) => (a.group ? a.group : [a]));

const addressesOf = (list: Address[] | undefined) =>
  [...new Set(mailboxes(list).map((m) => m.address.trim().toLowerCase()))]
    .filter(isValidAddress)
    .slice(0, MAX_ADDRESSES);

/** `<id@host>` tokens of a header, brackets kept, as the service stores its own Message-IDs. */
const idsIn = (value: string | undefined) =>
  (value?.match(MESSAGE_ID) ?? []).filter((id) => id.length <= MAX_ID_LENGTH);

/** A Message-ID as the service stores them: `<id@host>`, brackets kept; null when unusable. */
export function ownMessageId(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  const id = idsIn(trimmed)[0] ?? (trimmed && !/[\s<>]/.test(trimmed) ? `<${trimmed}>` : null);
  return id && id.length <= MAX_ID_LENGTH ? id : null;
}

/** A subject a ticket and a reply's Subject header can carry; the raw message keeps the original. */
function subjectOf(value: string | undefined): string {
  const line = oneLine(value ?? "");
  if (!subjectProblem(line)) return line;
  const clipped = line.slice(0, 900);
  return subjectProblem(clipped) ? "(no subject)" : clipped;
}

function fileOf(part: Attachment, index: number): InboundFile {
  const contentId = part.contentId?.replace(/^<|>$/g, "").trim() || null;
  const bytes =
    typeof part.content === "string" ? new TextEncoder().encode(part.content) : new Uint8Array(part.content);
  return {
    filename: oneLine(part.filename ?? "").slice(0, 255) || `attachment-${index + 1}`,
    contentType: mediaTypeProblem(part.mimeType) ? "application/octet-stream" : part.mimeType,
    bytes,
    contentId: contentId && !contentIdProblem(contentId) ? contentId : null,
  };
}

/** What `unreadBody` keeps: a notice is a few lines, its returned original the rest. */
const MAX_UNREAD_BODY = 64 * 1024;

/**
 * The body after the header block, without MIME delimiter lines and the part headers that follow
 * them: the text of a multipart the parser could not split, as a person reading it would see it.
 */
function unreadBodyOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, MAX_UNREAD_BODY * 2)).replace(/\r\n?/g, "\n");
  const start = text.indexOf("\n\n");
  const lines = start < 0 ? [] : text.slice(start + 2).split("\n");
  const kept: string[] = [];
  let inPartHeaders = false;
  for (const line of lines) {
    if (/^--\S/.test(line) && !/\s/.test(line)) {
      inPartHeaders = true;
      continue;
    }
    if (inPartHeaders) {
      if (line.trim() === "") inPartHeaders = false;
      else if (/^[\w-]+:|^[ \t]/.test(line)) continue;
      else inPartHeaders = false;
    }
    kept.push(line);
  }
  return kept.join("\n").slice(0, MAX_UNREAD_BODY);
}

/**
 * The header bytes of a message, all its parts' together, the parser reads before it gives up
 * (its own default is 2 MiB). Its decoding of encoded words costs time quadratic in one header's
 * length (half a MiB of them took seconds); 256 KiB is also the header limit of Exchange Online.
 */
const MAX_HEADER_BYTES = 256 * 1024;

/** Parses the received bytes; throws only for MIME the parser cannot read at all, or headers over MAX_HEADER_BYTES. */
export async function parseMail(bytes: Uint8Array): Promise<InboundMail> {
  const email = await PostalMime.parse(bytes, { maxHeadersSize: MAX_HEADER_BYTES });
  const from = mailboxes(email.from ? [email.from] : [])[0];
  const fromAddress = from?.address.trim().toLowerCase() ?? "";
  const parentIds = [...idsIn(email.inReplyTo), ...idsIn(email.references).reverse()];
  return {
    from: isValidAddress(fromAddress)
      ? { address: fromAddress, name: oneLine(from?.name ?? "").slice(0, 200) || null }
      : null,
    to: addressesOf(email.to),
    cc: addressesOf(email.cc),
    subject: subjectOf(email.subject),
    messageId: ownMessageId(email.messageId),
    parentIds: [...new Set(parentIds)].slice(0, MAX_PARENT_IDS),
    text: email.text ?? null,
    html: email.html ?? null,
    files: email.attachments.slice(0, MAX_STORED_ATTACHMENTS).map(fileOf),
    headers: email.headers,
    unreadBody: email.text || email.html || email.attachments.length > 0 ? null : unreadBodyOf(bytes) || null,
  };
}
