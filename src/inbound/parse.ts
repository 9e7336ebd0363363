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

/** Parses the received bytes; throws only for MIME the parser cannot read at all. */
export async function parseMail(bytes: Uint8Array): Promise<InboundMail> {
  const email = await PostalMime.parse(bytes);
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
  };
}
