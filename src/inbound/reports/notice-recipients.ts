import type { BounceKind } from "../../features/suppressions/bounces";
import { oneLine } from "../../lib/text";
import { isValidAddress } from "../../mail/address";
import type { InboundMail } from "../parse";
import {
  CONTACT_LINE,
  DELAY_NOTICE,
  EXPIRED,
  HARD_TEXT,
  MAILBOX_FULL,
  QUOTED_HEADER,
  SENDER_CONTEXT,
  SOFT_TEXT,
} from "./bounce-phrases";
import { MAX_DIAGNOSTIC, MAX_RECIPIENTS } from "./delivery-fields";
import type { ReportedRecipient } from "./report-types";

/**
 * Reading the failed recipients of a plain-text notice. Anyone who can write to an inbox can send
 * a notice, so every step here is linear in the notice (at most 64 KiB of text, see splitNotice):
 * lists are cut to MAX_RECIPIENTS before anything is done per entry, nothing is searched for once
 * per line per address, and each pattern is bounded.
 */

/** An enhanced status code in prose: not part of an IP address or a longer number. */
const STATUS_IN_TEXT = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;
/** An SMTP reply code in prose (`said: 550 ...`, `550-5.1.1`, `ERROR_CODE :550`): no number, IP or URL part. */
const REPLY_IN_TEXT = /(?<![\w.#/=@-])([245][0-5]\d)(?=[ \-:,]|$)(?![:-]\d)/m;
/**
 * An address in prose. Lengths are bounded (RFC 5321: 64-octet local parts, 63-octet labels) and
 * a match cannot start inside a word, so hostile text costs linear time, not quadratic.
 */
export const ADDRESS_IN_TEXT =
  /(?<![/\w.!#$%&'*+=?^`{|}~-])[a-z0-9.!#$%&'*+=?^_`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?){1,10}/gi;
/**
 * `a@b <c@d>`: the bracketed address right after another. Looked for only within one address's
 * length of it, and the part before its `@` holds none, so the pattern cannot backtrack over a
 * hostile line (`x@y.com <a@a@a@…` cost a second per 60 KB).
 */
const BRACKETED = /^\s*<(?:mailto:)?([^<>\s@]+@[^<>\s]+)>/;
const BRACKETED_REACH = 300;
/** What is read of one recipient's own lines: a few lines say what happened to it. */
const MAX_BLOCK = 2 * 1024;

const localPart = (address: string) => address.slice(0, address.lastIndexOf("@"));

/** The recipients Exim, Gmail and Google Groups list in `X-Failed-Recipients`, lowercased: the first MAX_RECIPIENTS. */
function failedRecipientsHeader(mail: InboundMail): string[] {
  const found = new Set<string>();
  for (const header of mail.headers) {
    if (header.key !== "x-failed-recipients") continue;
    for (const word of header.value.split(/[,\s]+/)) {
      const address = word.replace(/^<|>$/g, "").toLowerCase();
      if (isValidAddress(address)) found.add(address);
      if (found.size >= MAX_RECIPIENTS) return [...found];
    }
  }
  return [...found];
}

/**
 * The addresses of the notice's own text that name a failed recipient, in order, each with the
 * line it is first named on (the first MAX_RECIPIENTS): less those of the notice's sender, its
 * addressee (the bounce address), the original's sender, and those on lines that quote headers,
 * name a sender (`MAIL FROM:<...>`) or say whom to contact.
 */
function addressesInNotice(mail: InboundMail, lines: string[], originalFrom: string | null) {
  const excluded = new Set(
    [mail.from?.address, ...mail.to, ...mail.cc, originalFrom].filter((a): a is string => Boolean(a)),
  );
  const found = new Map<string, number>();
  for (let index = 0; index < lines.length && found.size < MAX_RECIPIENTS; index++) {
    const line = lines[index] ?? "";
    if (!line.includes("@")) continue;
    // "...contact <support@...>" and its Japanese form, whose verb ends the sentence on the next line.
    const contact = CONTACT_LINE.test(line) || CONTACT_LINE.test((lines[index + 1] ?? "").slice(0, 12));
    if (QUOTED_HEADER.test(line) || contact) continue;
    for (const match of line.matchAll(ADDRESS_IN_TEXT)) {
      const address = match[0].toLowerCase();
      const at = match.index ?? 0;
      if (SENDER_CONTEXT.test(line.slice(Math.max(0, at - 40), at))) continue;
      // `a@b <c@d>`: the first is the display name of the other (Exim's malformed-address notice).
      const after = at + match[0].length;
      const bracketed = BRACKETED.exec(line.slice(after, after + BRACKETED_REACH))?.[1];
      if (bracketed && bracketed.toLowerCase() !== address) {
        excluded.add(address);
        continue;
      }
      if (excluded.has(address) || /^mailer-?daemon$/i.test(localPart(address))) continue;
      if (!isValidAddress(address) || found.has(address) || found.size >= MAX_RECIPIENTS) continue;
      found.set(address, index);
    }
  }
  return found;
}

/**
 * Each failed recipient with its block: the lines from its first mention to the next line naming
 * another recipient (mail.ru and others repeat the list in English), which say what happened to
 * it. `X-Failed-Recipients`, when there, says who; otherwise the notice's text does.
 */
function namedRecipients(mail: InboundMail, notice: string, originalFrom: string | null) {
  const lines = notice.split("\n");
  const lower = lines.map((l) => l.toLowerCase());
  const inText = addressesInNotice(mail, lines, originalFrom);
  const listed = failedRecipientsHeader(mail);
  const recipients = listed.length
    ? listed.map((address) => ({
        address,
        line: inText.get(address) ?? lower.findIndex((l) => l.includes(address)),
      }))
    : [...inText].map(([address, line]) => ({ address, line }));
  // Which recipients each line names, found in one pass over the lines (at most MAX_RECIPIENTS
  // searches of each line), and the lines that name any: each block then steps over those alone,
  // where every block searching every later line for every other recipient cost seconds.
  const namedOn = lower.map((l) =>
    l.includes("@") ? recipients.flatMap((r, i) => (l.includes(r.address) ? [i] : [])) : [],
  );
  const naming = namedOn.flatMap((names, line) => (names.length > 0 ? [line] : []));
  const starts = lineStarts(lines);
  return recipients.map((f, self) => {
    if (f.line < 0) return { address: f.address, block: "" };
    const end =
      naming.find((line) => line > f.line && namedOn[line]?.some((other) => other !== self)) ?? lines.length;
    const from = starts[f.line] ?? 0;
    const to = Math.min((starts[end] ?? notice.length + 1) - 1, from + MAX_BLOCK);
    return { address: f.address, block: notice.slice(from, to) };
  });
}

/** Where each line begins in the text they were split from (`split("\n")`). */
function lineStarts(lines: string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  return starts;
}

interface Verdict {
  kind: BounceKind;
  status: string | null;
  replyCode: string | null;
}

/** The codes a text gives, and what its words say, or null when it says nothing either way. */
function verdictIn(text: string): Verdict | null {
  const status = STATUS_IN_TEXT.exec(text)?.[0] ?? null;
  const replyCode = REPLY_IN_TEXT.exec(text)?.[1] ?? null;
  // A full mailbox may empty: soft whatever the class (RFC 3463 X.2.2 is "mailbox full").
  if (MAILBOX_FULL.test(text) || /^[45]\.2\.2$/.test(status ?? ""))
    return { kind: "soft", status, replyCode };
  if (EXPIRED.test(text) && !status?.startsWith("5")) return { kind: "soft", status, replyCode };
  const byClass = (status ?? replyCode)?.[0];
  if (byClass === "5") return { kind: "hard", status, replyCode };
  if (byClass === "4") return { kind: "soft", status, replyCode };
  if (HARD_TEXT.test(text)) return { kind: "hard", status, replyCode };
  if (SOFT_TEXT.test(text)) return { kind: "soft", status, replyCode };
  return null;
}

/** What the whole notice says, read once for all its recipients. */
function noticeFacts(notice: string, subject: string) {
  const whole = verdictIn(notice);
  return {
    whole,
    fallback: whole ?? verdictIn(subject) ?? { kind: "hard" as const, status: null, replyCode: null },
    delayNotice: DELAY_NOTICE.test(subject) || DELAY_NOTICE.test(notice),
    firstLines: oneLine(notice).trim().slice(0, MAX_DIAGNOSTIC),
  };
}

/**
 * Hard or soft, from the recipient's own lines first, then the whole notice, then its subject;
 * a notice that says nothing at all about why is a failure, and failures that name no cause
 * are permanent in the notices of every server seen (qmail, Notes, IMail).
 */
function recipientOf(
  address: string,
  block: string,
  facts: ReturnType<typeof noticeFacts>,
): ReportedRecipient {
  const verdict = verdictIn(block) ?? facts.fallback;
  const status = verdict.status ?? facts.whole?.status ?? null;
  const replyCode = verdict.replyCode ?? facts.whole?.replyCode ?? null;
  const action = verdict.kind === "soft" && facts.delayNotice ? "delayed" : "failed";
  // The recipient's own lines say why; without any beyond the address, the notice's first lines.
  const why = oneLine(block.replace(address, " ").replace(/[<>:"]/g, " ")).trim();
  const text = why.length > 3 ? why : facts.firstLines;
  const diagnostic = [status, action, text].filter(Boolean).join(" ").slice(0, MAX_DIAGNOSTIC);
  return { address, action, status, replyCode, diagnostic, kind: verdict.kind };
}

/**
 * The failed recipients of a recognised notice's text, with hard or soft and the codes it quotes.
 * A notice that names nobody is about the recipient the bounce address names, when it names one
 * (`envelopeRecipient`); without one it is about nobody the service could act on.
 */
export function failedRecipients(
  mail: InboundMail,
  notice: string,
  originalFrom: string | null,
  envelopeRecipient: string | null,
): ReportedRecipient[] {
  const facts = noticeFacts(notice, mail.subject);
  const named = namedRecipients(mail, notice, originalFrom);
  if (named.length > 0) return named.map((r) => recipientOf(r.address, r.block, facts));
  return envelopeRecipient ? [recipientOf(envelopeRecipient, "", facts)] : [];
}
