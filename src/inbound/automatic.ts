import type { Header } from "postal-mime";

const valuesOf = (headers: Header[], key: string) => headers.filter((h) => h.key === key).map((h) => h.value);

/** A header's first token, lowercased: `auto-replied; comment` → `auto-replied`. */
const tokenOf = (value: string) => value.split(/[;(]/)[0]?.trim().toLowerCase() ?? "";

/** `Precedence` values responders and list servers use; `auto_reply` is Yahoo's and others'. */
const AUTOMATIC_PRECEDENCE = ["bulk", "list", "junk", "auto_reply"];
/**
 * Exchange asks for no automatic answer to its own (`All`, `OOF`, `AutoReply`); the other values
 * (`DR`, `NDR`, `RN`, `NRN`: no delivery or read receipts) are on ordinary mail from Outlook too.
 */
const SUPPRESSED_RESPONSES = /\b(all|oof|autoreply)\b/i;
/** The mailers of vacation programs (`vacation 1.2.7`, "Vacation Autoresponder"). */
const VACATION_MAILER = /\b(vacation|auto-?responder|auto-?reply)\b/i;

/** A yes/no header present and not `no` (`X-Autoreply: yes`, `X-Autorespond: true`). */
const flagged = (headers: Header[], key: string) => valuesOf(headers, key).some((v) => tokenOf(v) !== "no");

/**
 * Whether a machine sent this (RFC 3834 and the conventions before it): `Auto-Submitted` other
 * than `no`, `Precedence: bulk|list|junk|auto_reply`, `X-Autoreply`, `X-Autorespond`,
 * `X-Auto-Response-Suppress` asking for no automatic answer, a vacation program's `X-Mailer`, a
 * delivery or feedback report (`multipart/report`), or the null envelope sender of a bounce.
 * Nothing answers such mail automatically, it opens no ticket and reopens none (see receive.ts).
 */
export function isAutomatic(headers: Header[], mailFrom: string): boolean {
  const precedence = valuesOf(headers, "precedence").some((v) => AUTOMATIC_PRECEDENCE.includes(tokenOf(v)));
  const suppress = valuesOf(headers, "x-auto-response-suppress").some((v) => SUPPRESSED_RESPONSES.test(v));
  const vacation = valuesOf(headers, "x-mailer").some((v) => VACATION_MAILER.test(v));
  const report = valuesOf(headers, "content-type").some((v) => tokenOf(v) === "multipart/report");
  const nullSender = mailFrom.trim() === "" || mailFrom.trim() === "<>";
  return (
    flagged(headers, "auto-submitted") ||
    flagged(headers, "x-autoreply") ||
    flagged(headers, "x-autorespond") ||
    precedence ||
    suppress ||
    vacation ||
    report ||
    nullSender
  );
}

const ADDRESS = /[^\s<>()[\]"',;:@]+@[^\s<>()[\]"',;:@]+/g;
/**
 * The `X-Loop` addresses checked against the workspace's own: each is a bound parameter of one
 * D1 read (100 at most per statement), and a loop names one or two. 500 made every delivery fail.
 */
const MAX_LOOP_ADDRESSES = 20;

/** The first distinct addresses `X-Loop` headers name, lowercased: our own among them means the mail came back. */
export const loopAddresses = (headers: Header[]) =>
  [
    ...new Set(
      valuesOf(headers, "x-loop")
        .flatMap((v) => v.match(ADDRESS) ?? [])
        .map((a) => a.toLowerCase()),
    ),
  ].slice(0, MAX_LOOP_ADDRESSES);
