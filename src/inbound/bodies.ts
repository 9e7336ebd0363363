import { htmlToText } from "../features/portal/html-to-text";
import { MAX_MESSAGE_BODY_BYTES } from "../features/tickets/tickets.schemas";
import type { InboundMail } from "./parse";
import { stripQuoted } from "./quoted";

/** The display text is the reply alone: rarely long, and what is cut stays in the other fields. */
const MAX_STRIPPED_BYTES = 100_000;
const CLIPPED = "\n[…cut here: the whole message is at GET /v1/messages/{id}/raw]";

/** What one character takes as JSON in UTF-8 (as jsonLength counts it). */
function jsonCost(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === '"' || ch === "\\" || ch === "\n" || ch === "\r" || ch === "\t" || ch === "\b" || ch === "\f")
    return 2;
  if (code < 0x20) return 6;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * `text` cut to fit `max` bytes as JSON, marked where it was cut. A message row and its event are
 * D1 rows of 2 MB at most: mail is never refused for a long body, the raw message keeps it all.
 */
export function clipJson(text: string, max: number): string {
  let used = 2 + CLIPPED.length + 8;
  let end = 0;
  for (const ch of text) {
    used += jsonCost(ch);
    if (used > max) return `${text.slice(0, end)}${CLIPPED}`;
    end += ch.length;
  }
  return text;
}

/**
 * The bodies a received message is stored with (each at most what an API message may hold). The
 * HTML is made text once, here, from what is stored of it (so its cost is bounded too): pages
 * show `html_text` and never convert per view.
 */
export function bodiesOf(mail: InboundMail) {
  const bodyText = mail.text === null ? null : clipJson(mail.text, MAX_MESSAGE_BODY_BYTES);
  const bodyHtml = mail.html === null ? null : clipJson(mail.html, MAX_MESSAGE_BODY_BYTES);
  const htmlText =
    bodyText || bodyHtml === null ? null : clipJson(htmlToText(bodyHtml), MAX_MESSAGE_BODY_BYTES);
  return {
    bodyText,
    bodyHtml,
    htmlText,
    strippedText: clipJson(stripQuoted(bodyText || htmlText || ""), MAX_STRIPPED_BYTES),
  };
}
