/**
 * What delivery-failure notices that are no RFC 3464 report say, and how: facts (sender names,
 * subjects, layouts, phrases) taken from the published patterns of established bounce parsers
 * (sisimai's lhost modules, Haraka's bounce handling, Perl's Mail::DeliveryStatus::BounceParser,
 * boomerang) and checked on sisimai's public set of real bounces. No code of theirs.
 *
 * Why no library from the registry (evaluated on 33 real notices: qmail, Exim, Gmail, Yahoo,
 * Exchange 2003, Google Groups, mail.ru, Notes, GMX, WorkMail, OpenSMTPD, IMail, Zoho, KDDI,
 * Biglobe, Sendmail V5, Courier, Postfix, an RFC 3834 auto-reply):
 * - email-bounce-parser 1.0.22 needs `re2`, a native Node module: it cannot load in Workers.
 *   Its patterns (run over JS RegExp for the test) found the recipient of 10 of 31 notices and
 *   say "bounce" for any text at all, the vacation reply included: no recognition.
 * - baunsu 0.2.3 (Node `Buffer`, `events`, `encoding`) scores RFC 3464 field names only: it
 *   recognised 3 of the 33, all of them RFC 3464 reports, which the service already reads.
 * - haraka-plugin-bounce 2.2.1 is an SMTP-time plugin (`node:crypto`, SPF lookups, Haraka's
 *   config): it decides whether to accept a bounce, and reads no recipient or status from one.
 */

/** Who writes notices: `MAILER-DAEMON@host`, `postmaster@host`, "Mail Delivery Subsystem". */
export const DAEMON_LOCAL_PART =
  /^(mailer[-_]?daemon|mail[-_]?daemon|postmaster|mdaemon|mail[-_]?delivery[-_a-z]*)$/i;
export const DAEMON_NAME =
  /\b(mail(er)? delivery (subsystem|system|service)|mailer[- ]daemon|postmaster|mail administrator|system administrator)\b/i;

/** Sentences only mail servers write, whoever the notice says it is from. */
export const DAEMON_LAYOUT = new RegExp(
  [
    "this is the (qmail-send program|mail system at host|dragonfly mail agent)",
    "message was created automatically by mail delivery software",
    "the following addresses had permanent fatal errors",
    "transcript of session follows",
    "delivery to the following recipients? failed",
    "i'm afraid i wasn't able to deliver",
    "following recipients returned permanent errors",
    "could not be delivered to: ?<",
    "your message did not reach some or all of the intended recipients",
  ].join("|"),
  "i",
);

/** Subjects of failure notices ("failure notice", "Undelivered Mail Returned to Sender", ...). */
export const FAILURE_SUBJECT = new RegExp(
  [
    "failure notice",
    "undeliver(ed|able)",
    "returned mail",
    "returning message",
    "mail delivery failed",
    "delivery (status notification|failure|notification|failed|has failed|problem|status report|final failure|delayed)",
    "delayed mail",
    "(message|mail) (not delivered|failure|failed|delivery failure)",
    "non[- ]?delivery",
    "could not (be )?deliver",
    "nicht zustellbar|unzustellbar",
    "non recapitabile|non remis|no entregado|não entregue",
    "не доставлено",
    "エラー|不達|配送エラー|未送信",
    "warning: could not send",
    "warning: message .* delayed",
    "error sending your (mail|message)",
  ].join("|"),
  "i",
);

/** Success notices in prose ("Delivery Status Notification (Success)", "Delivered: ..."): no failure. */
export const SUCCESS_SUBJECT =
  /\((success|relayed|delivered|expanded)\)|^\s*(delivered|relayed|read):|delivery (was )?successful/i;
export const SUCCESS_TEXT =
  /(was|has been) (successfully )?delivered to|successfully delivered|delivery (to the following recipients? )?(was |has )?(successful|succeeded|complete)/i;

/** Subjects of RFC 3834 auto-replies, which go back to the same Return-Path as bounces. */
export const AUTO_REPLY_SUBJECT =
  /^\s*(auto(matic)?[-_ ]?(reply|response|respons|antwort)|out of (the )?office|away|vacation|abwesen|absence|自動応答|自動返信)/i;

/** Text that says a message was not, or not yet, delivered. */
export const FAILURE_TEXT = new RegExp(
  [
    "(could|can) ?not be delivered",
    "couldn't be delivered",
    "(was|wasn't|were|has|have) not (yet )?(been )?delivered",
    "wasn't delivered",
    "unable to (deliver|relay)",
    "undeliverable",
    "non-?deliverable",
    "could not be sent",
    "not (be )?deliver(ed|able)",
    "delivery (to the following recipient|has failed|failed|problem|status notification)",
    "failed permanently",
    "permanent (fatal )?errors?",
    "following address(es|\\(es\\))? (failed|had)",
    "did not reach",
    "returned to sender",
    "transcript of session",
    "unsent message",
    "temporary problem",
    "could not deliver",
    "error (has )?occurred while",
    "failure reasons?",
    "non-delivered information",
    "delivery to the following",
    "was not able to deliver",
    "wasn't able to deliver",
    "(message|mail) (you sent )?(could not|couldn't|was not|wasn't) be",
    "rejected (by|your)",
    "(user|mailbox|recipient|address) (unknown|not found|unavailable|rejected)",
    "unknown (user|recipient)",
    "no such (user|mailbox|recipient|address)",
    "does not exist",
    "mailbox (is )?full",
    "over ?quota",
    "не может быть доставлено",
    "配送できません|届きませんでした|送信できませんでした|存在しない",
  ].join("|"),
  "i",
);

/** Where the returned original begins in a notice's text: nothing after it is the notice's. */
export const ORIGINAL_MARKER = new RegExp(
  [
    // Bounded: a marker is a short line, and hostile text must not cost quadratic time.
    "^[ \\t]*[-=*_]{2,}[ \\t]*[^\\n]{0,60}?\\b(copy of|original|unsent|returned|undelivered|header of)\\b[^\\n]{0,80}$",
    "^[ \\t]*(original message follows|below is a copy of the original message|the original message (headers?|follows)|original message headers?)\\b.*$",
    "^[ \\t]*-{2,} ?below this line.*$",
  ].join("|"),
  "im",
);

/** A header line at the start of a line: the quoted original's headers begin (no marker above). */
export const HEADER_LINE =
  /^(Return-Path|Received|DKIM-Signature|DomainKey-Signature|ARC-Seal|ARC-Message-Signature|Authentication-Results|Delivered-To|Message-ID|MIME-Version|X-[A-Za-z0-9-]+):/im;

/** Lines that quote the original's headers (Exchange's "To: ..."): their addresses are no recipient. */
export const QUOTED_HEADER =
  /^[\s>]*(from|to|cc|bcc|sender|reply-to|return-path|subject|date|sent|envelope-from|message-id)\s*:/i;
/** What precedes a sender's address, not a recipient's: `MAIL FROM:<`, `(envelope-from <`, "received ... from". */
export const SENDER_CONTEXT = /(mail from:?|envelope-from|\bsender\b:?|\bfrom)\s*[<[]?$/i;
/** Lines that say whom to ask for help ("please contact <postmaster@...>"): no recipient on them. */
export const CONTACT_LINE = /\b(contact|assistance|questions?|help ?desk|send mail to)\b|連絡|問い合わせ/i;

/** Full mailboxes: soft even with a 5xx reply or 5.x.x status (RFC 3463 X.2.2). */
export const MAILBOX_FULL =
  /(mail ?box|mail ?folder|inbox)('s)? (is |was )?(full|over)|over ?quota|quota (exceeded|full)|exceeded (the |its |their )?(storage|quota|mailbox)|exceeds? (the )?allowed size|insufficient (system )?storage|too many messages|mailbox size limit|out of storage|not enough (disk )?space|exceeded the local limit|容量|満杯/i;

/**
 * A delivery given up after retrying (RFC 3463 4.4.7): a run of temporary failures, so soft
 * unless the notice itself gives a 5.x.x status.
 */
export const EXPIRED =
  /could not deliver for the last|not delivered within|retry timeout exceeded|in the queue too long|delivery failed \d+ attempts|was aborted after|did not accept our requests to connect|message expired|delivery time expired|cannot send message for \d+ days|too long in queue|have been failing for a long time/i;

/** Permanent failures, named in words. */
export const HARD_TEXT = new RegExp(
  [
    "user unknown",
    "unknown (user|recipient|address|local[- ]part|mailbox)",
    "no such (user|mailbox|recipient|address|account|person|domain)",
    "(does|do|did) ?n[o']t exist",
    "(is )?not (a )?(valid|known) (user|recipient|mailbox|address)",
    "invalid (recipient|address|mailbox|user|e-?mail)",
    "(recipient|address) (address )?rejected",
    "(mailbox|account|user|address) (is |has been )?(disabled|deactivated|inactive|suspended|closed|unavailable|not found|unknown|expired|terminated|deleted|removed)",
    "(user|recipient|mailbox) not (found|listed|recognized)",
    "recipient name is not recognized",
    "(domain|host) (name )?(not found|does not exist|unknown|lookup failed)",
    "unrouteable|unroutable|no mx|name service error|host not found|mx or srv record indicated no smtp service",
    "failed permanently|permanent (error|failure)|given up|not going to try again",
    "存在しません|存在しない",
  ].join("|"),
  "i",
);

/** Transient failures and delays, named in words. */
export const SOFT_TEXT = new RegExp(
  [
    "try(ing)? again later",
    "temporar(y|ily)",
    "delayed|delay\\b",
    "will (be )?retr(y|ied)",
    "still (being )?(retried|trying)",
    "has not (yet )?been delivered",
    "not yet been delivered",
    "deferred",
    "greylist",
    "timed? ?out",
  ].join("|"),
  "i",
);

/** A notice that is only a warning: the message is still queued, so the recipient counts a delay. */
export const DELAY_NOTICE =
  /delay|still (being )?(retried|trying)|has not (yet )?been delivered|will (be )?retr(y|ied)|warning: could not send/i;
