import { htmlToText } from "../../features/portal/html-to-text";
import { isValidAddress } from "../../mail/address";
import type { InboundMail } from "../parse";
import {
  AUTO_REPLY_SUBJECT,
  DAEMON_LAYOUT,
  DAEMON_LOCAL_PART,
  DAEMON_NAME,
  FAILURE_SUBJECT,
  FAILURE_TEXT,
  HEADER_LINE,
  ORIGINAL_MARKER,
  SUCCESS_SUBJECT,
  SUCCESS_TEXT,
} from "./bounce-phrases";
import { ADDRESS_IN_TEXT, failedRecipients } from "./notice-recipients";
import type { ReportedRecipient } from "./report-types";

/** What is read of a notice: its own first 64 KiB of text (a notice is a few lines). */
const MAX_TEXT = 64 * 1024;
/** The HTML a notice without text is read from, before it is made text (HTML says less per byte). */
const MAX_HTML = 4 * MAX_TEXT;
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

/**
 * Mail that a mail server sent, as far as anything but a display name shows: the null envelope
 * sender every notice is sent with (RFC 5321 §4.5.5), or a mailer daemon's or postmaster's own
 * address as envelope sender or From. A display name ("IT System Administrator") is anyone's to
 * write: at an inbox address, where mail is a customer's unless it is a report beyond doubt, it
 * never makes a notice.
 */
export function sentByDaemon(mail: InboundMail, mailFrom: string | undefined): boolean {
  const envelope = mailFrom?.trim().toLowerCase();
  if (envelope !== undefined && /^<?>?$/.test(envelope)) return true;
  return [envelope, mail.from?.address]
    .filter((a): a is string => Boolean(a?.includes("@")))
    .some((address) => DAEMON_LOCAL_PART.test(localPart(address.replace(/^<|>$/g, ""))));
}

/** The notice's text and the returned original after it (quoted in the text), split at the first sign of the original. */
export function splitNotice(mail: InboundMail): { notice: string; returned: string } {
  const text = (mail.text ?? (mail.html ? htmlToText(mail.html.slice(0, MAX_HTML)) : (mail.unreadBody ?? "")))
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

/** The server that wrote the notice: a daemon sender's domain, else the first `Received: ... by host`. */
export function noticeHost(mail: InboundMail): string | null {
  if (mail.from && isDaemonSender(mail)) return domainPart(mail.from.address);
  const received = mail.headers.find((h) => h.key === "received")?.value ?? "";
  return /\bby\s+([a-z0-9.-]+\.[a-z]{2,})/i.exec(received)?.[1]?.toLowerCase() ?? null;
}

/**
 * The failed recipients of a recognised notice (see failedRecipients), less the sender of the
 * original it returns: named by the caller, or on a `From:` line the notice quotes.
 */
export function noticeRecipients(
  mail: InboundMail,
  text: { notice: string; returned: string },
  originalFrom: string | null,
  envelopeRecipient: string | null,
): ReportedRecipient[] {
  return failedRecipients(mail, text.notice, originalFrom ?? quotedFrom(text.returned), envelopeRecipient);
}
