import { htmlToText } from "../../features/portal/html-to-text";
import type { BounceKind } from "../../features/suppressions/bounces";
import { oneLine } from "../../lib/text";
import { isValidAddress } from "../../mail/address";
import type { InboundMail } from "../parse";
import {
  AUTO_REPLY_SUBJECT,
  CONTACT_LINE,
  DAEMON_LAYOUT,
  DAEMON_LOCAL_PART,
  DAEMON_NAME,
  DELAY_NOTICE,
  EXPIRED,
  FAILURE_SUBJECT,
  FAILURE_TEXT,
  HARD_TEXT,
  HEADER_LINE,
  MAILBOX_FULL,
  ORIGINAL_MARKER,
  QUOTED_HEADER,
  SENDER_CONTEXT,
  SOFT_TEXT,
  SUCCESS_SUBJECT,
  SUCCESS_TEXT,
} from "./bounce-phrases";
import { MAX_DIAGNOSTIC, MAX_RECIPIENTS } from "./delivery-fields";
import type { ReportedRecipient } from "./report-types";

/** What is read of a notice: its own first 64 KiB of text (a notice is a few lines). */
const MAX_TEXT = 64 * 1024;
/** An enhanced status code in prose: not part of an IP address or a longer number. */
const STATUS_IN_TEXT = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;
/** An SMTP reply code in prose (`said: 550 ...`, `550-5.1.1`, `ERROR_CODE :550`): no number, IP or URL part. */
const REPLY_IN_TEXT = /(?<![\w.#/=@-])([245][0-5]\d)(?=[ \-:,]|$)(?![:-]\d)/m;
/**
 * An address in prose. Lengths are bounded (RFC 5321: 64-octet local parts, 63-octet labels) and
 * a match cannot start inside a word, so hostile text costs linear time, not quadratic.
 */
const ADDRESS_IN_TEXT =
  /(?<![/\w.!#$%&'*+=?^`{|}~-])[a-z0-9.!#$%&'*+=?^_`{|}~-]{1,64}@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?){1,10}/gi;

const localPart = (address: string) => address.slice(0, address.lastIndexOf("@"));
const domainPart = (address: string) => address.slice(address.lastIndexOf("@") + 1);

/** Mail from a mailer daemon: `MAILER-DAEMON@host`, `postmaster@host` or "Mail Delivery System". */
export function isDaemonSender(mail: InboundMail): boolean {
  const from = mail.from;
  if (from) return DAEMON_LOCAL_PART.test(localPart(from.address)) || DAEMON_NAME.test(from.name ?? "");
  // `From: MAILER-DAEMON` or `MAILER-DAEMON <>`: no address to parse, the name still says who.
  const header = mail.headers.find((h) => h.key === "from")?.value ?? "";
  return DAEMON_NAME.test(header) || /^\s*"?mailer-daemon\b/i.test(header);
}

/** The notice's text and the returned original after it (quoted in the text), split at the first sign of the original. */
export function splitNotice(mail: InboundMail): { notice: string; returned: string } {
  const text = (mail.text ?? (mail.html ? htmlToText(mail.html) : (mail.unreadBody ?? "")))
    .slice(0, MAX_TEXT)
    .replace(/\r\n?/g, "\n");
  const marker = ORIGINAL_MARKER.exec(text);
  const header = HEADER_LINE.exec(text);
  const cut = Math.min(marker?.index ?? text.length, header?.index ?? text.length);
  return { notice: text.slice(0, cut), returned: text.slice(cut) };
}

/**
 * Whether the mail came back the way notices do (RFC 5321 §4.5.5, RFC 3834): a null envelope
 * sender (`mailFrom`, when the caller knows it, or the `Return-Path: <>` a delivering server
 * wrote), or `Auto-Submitted` other than `no`. A person's mail has neither.
 */
function sentAsNotice(mail: InboundMail, mailFrom: string | undefined): boolean {
  const value = (key: string) =>
    mail.headers.filter((h) => h.key === key).map((h) => h.value.trim().toLowerCase());
  const nullSender =
    mailFrom === undefined ? value("return-path").includes("<>") : /^<?>?$/.test(mailFrom.trim());
  return nullSender || value("auto-submitted").some((v) => v !== "" && !v.startsWith("no"));
}

/**
 * Whether a mail that is no RFC 3464 report is a delivery-failure notice: a mailer daemon's mail
 * with a failure subject or text; a layout only mail servers write; or, from anyone else (servers
 * that sign as `no-reply@` or leave From out), a failure subject and text on mail sent as a
 * notice. Auto-replies (RFC 3834: vacation, out of office) go back to the same Return-Path and
 * are none, whatever they say.
 */
export function isFailureNotice(mail: InboundMail, notice: string, mailFrom?: string): boolean {
  if (AUTO_REPLY_SUBJECT.test(mail.subject) || SUCCESS_SUBJECT.test(mail.subject)) return false;
  const subject = FAILURE_SUBJECT.test(mail.subject);
  const text = FAILURE_TEXT.test(notice);
  // "Your message was delivered to ...": a success told in prose, unless the subject says failure.
  if (!subject && SUCCESS_TEXT.test(notice)) return false;
  if (isDaemonSender(mail)) return subject || text;
  if (DAEMON_LAYOUT.test(notice)) return true;
  return subject && (text || !mail.from) && sentAsNotice(mail, mailFrom);
}

/** The address a `From:` line quoted in the returned original names. */
function quotedFrom(returned: string): string | null {
  const line = /^From:[ \t]*(.*)$/im.exec(returned)?.[1] ?? "";
  const address = line.match(ADDRESS_IN_TEXT)?.[0]?.toLowerCase() ?? null;
  return address && isValidAddress(address) ? address : null;
}

/** The returned original's Message-ID when the notice quotes its headers in the text. */
export const quotedMessageId = (returned: string): string | undefined =>
  /^Message-ID:[ \t]*(<[^<>\s]+>)/im.exec(returned)?.[1];

/** The recipients Exim, Gmail and Google Groups list in `X-Failed-Recipients`, lowercased. */
function failedRecipientsHeader(mail: InboundMail): string[] {
  const values = mail.headers.filter((h) => h.key === "x-failed-recipients").map((h) => h.value);
  const addresses = values
    .flatMap((v) => v.split(/[,\s]+/))
    .map((a) => a.replace(/^<|>$/g, "").toLowerCase());
  return [...new Set(addresses.filter(isValidAddress))];
}

/**
 * The addresses of the notice's own text that name a failed recipient, in order, each with the
 * line it is first named on: less those of the notice's sender, its addressee (the bounce
 * address), the original's sender, and those on lines that quote headers, name a sender
 * (`MAIL FROM:<...>`) or say whom to contact.
 */
function addressesInNotice(mail: InboundMail, lines: string[], originalFrom: string | null) {
  const excluded = new Set(
    [mail.from?.address, ...mail.to, ...mail.cc, originalFrom].filter((a): a is string => Boolean(a)),
  );
  const found: Array<{ address: string; line: number }> = [];
  const seen = new Set<string>();
  lines.forEach((line, index) => {
    // "...contact <support@...>" and its Japanese form, whose verb ends the sentence on the next line.
    const contact = CONTACT_LINE.test(line) || CONTACT_LINE.test((lines[index + 1] ?? "").slice(0, 12));
    if (QUOTED_HEADER.test(line) || contact) return;
    for (const match of line.matchAll(ADDRESS_IN_TEXT)) {
      const address = match[0].toLowerCase();
      if (SENDER_CONTEXT.test(line.slice(Math.max(0, (match.index ?? 0) - 40), match.index))) continue;
      // `a@b <c@d>`: the first is the display name of the other (Exim's malformed-address notice).
      const bracketed = /^\s*<(?:mailto:)?([^<>\s]+@[^<>\s]+)>/.exec(
        line.slice((match.index ?? 0) + match[0].length),
      )?.[1];
      if (bracketed && bracketed.toLowerCase() !== address) {
        excluded.add(address);
        continue;
      }
      if (excluded.has(address) || /^mailer-?daemon$/i.test(localPart(address))) continue;
      if (!isValidAddress(address) || seen.has(address) || found.length >= MAX_RECIPIENTS) continue;
      seen.add(address);
      found.push({ address, line: index });
    }
  });
  return found;
}

/**
 * Each failed recipient with its block: the lines from its first mention to the next
 * recipient's, which say what happened to it. `X-Failed-Recipients`, when there, says who;
 * otherwise the notice's text does.
 */
function namedRecipients(mail: InboundMail, notice: string, originalFrom: string | null) {
  const lines = notice.split("\n");
  const inText = addressesInNotice(mail, lines, originalFrom);
  const listed = failedRecipientsHeader(mail);
  const found = listed.length
    ? listed.map((address) => ({
        address,
        line:
          inText.find((f) => f.address === address)?.line ??
          lines.findIndex((l) => l.toLowerCase().includes(address)),
      }))
    : inText;
  const recipients = found.slice(0, MAX_RECIPIENTS);
  const lower = lines.map((l) => l.toLowerCase());
  return recipients.map((f) => {
    if (f.line < 0) return { address: f.address, block: "" };
    // Up to the next line naming another recipient: mail.ru and others repeat the list in English.
    const others = recipients.filter((o) => o.address !== f.address);
    let end = f.line + 1;
    while (end < lines.length && !others.some((o) => lower[end]?.includes(o.address))) end++;
    return { address: f.address, block: lines.slice(f.line, end).join("\n") };
  });
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

/**
 * Hard or soft, from the recipient's own lines first, then the whole notice, then its subject;
 * a notice that says nothing at all about why is a failure, and failures that name no cause
 * are permanent in the notices of every server seen (qmail, Notes, IMail).
 */
function verdictOf(block: string, notice: string, subject: string): Verdict {
  const own = verdictIn(block);
  const whole = verdictIn(notice);
  const verdict = own ?? whole ?? verdictIn(subject) ?? { kind: "hard", status: null, replyCode: null };
  return {
    ...verdict,
    status: verdict.status ?? whole?.status ?? null,
    replyCode: verdict.replyCode ?? whole?.replyCode ?? null,
  };
}

function recipientOf(address: string, block: string, notice: string, subject: string): ReportedRecipient {
  const { kind, status, replyCode } = verdictOf(block, notice, subject);
  const delayed = kind === "soft" && (DELAY_NOTICE.test(subject) || DELAY_NOTICE.test(notice));
  const action = delayed ? "delayed" : "failed";
  // The recipient's own lines say why; without any beyond the address, the notice's first lines.
  const why = oneLine(block.replace(address, " ").replace(/[<>:"]/g, " ")).trim();
  const text = why.length > 3 ? why : oneLine(notice).trim();
  const diagnostic = [status, action, text].filter(Boolean).join(" ").slice(0, MAX_DIAGNOSTIC);
  return { address, action, status, replyCode, diagnostic, kind };
}

/** The server that wrote the notice: a daemon sender's domain, else the first `Received: ... by host`. */
export function noticeHost(mail: InboundMail): string | null {
  if (mail.from && isDaemonSender(mail)) return domainPart(mail.from.address);
  const received = mail.headers.find((h) => h.key === "received")?.value ?? "";
  return /\bby\s+([a-z0-9.-]+\.[a-z]{2,})/i.exec(received)?.[1]?.toLowerCase() ?? null;
}

/**
 * The failed recipients of a recognised notice, with hard or soft and the codes it quotes.
 * A notice that names nobody is about the recipient the bounce address names, when it names one
 * (`envelopeRecipient`); without one it is about nobody the service could act on.
 */
export function noticeRecipients(
  mail: InboundMail,
  text: { notice: string; returned: string },
  originalFrom: string | null,
  envelopeRecipient: string | null,
): ReportedRecipient[] {
  const named = namedRecipients(mail, text.notice, originalFrom ?? quotedFrom(text.returned));
  if (named.length > 0) {
    return named.map((r) => recipientOf(r.address, r.block, text.notice, mail.subject));
  }
  return envelopeRecipient ? [recipientOf(envelopeRecipient, "", text.notice, mail.subject)] : [];
}
