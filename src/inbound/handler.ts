import { createDb, type Db } from "../db/client";
import { envFor } from "../db/shards";
import { type AnnounceSince, announcerOf } from "../features/email-webhooks/announce-batch";
import { findInbox } from "../features/inboxes/inboxes.repo";
import { newId } from "../lib/ids";
import { describeError, log } from "../lib/logger";
import { recordDropped } from "./dropped";
import { type InboundMail, parseMail } from "./parse";
import { forgetRaw, keepRaw, MAX_INBOUND_BYTES, type RawMail, rawKeyOf, readRaw } from "./raw-mail";
import { type InboundContext, type Received, receive } from "./receive";
import { confirmedInbox, type MailboxRoute, routeRecipient } from "./recipient";
import { bouncedEmail } from "./reports/bounced-email";
import { namedRecipient } from "./reports/named-recipient";
import { sentByDaemon } from "./reports/plain-notice";
import { type ReadOptions, readReport } from "./reports/read-report";
import { type ReportOutcome, receiveReport } from "./reports/receive-report";
import { emailByMessageId, type ReportedEmail } from "./reports/reports.repo";

export type Outcome =
  | { kind: "rejected"; reason: string }
  | Received
  /** A bounce or complaint report, recorded (and applied when it names an email of ours). */
  | { kind: "report"; outcome: ReportOutcome };

const TOO_LARGE = `Message too large: this service accepts messages of up to ${MAX_INBOUND_BYTES / 1024 / 1024} MiB.`;

async function reject(message: ForwardableEmailMessage, reason: string): Promise<Outcome> {
  // In production setReject answers nothing. Locally (wrangler dev's email endpoint, the tests)
  // the message is an RPC stub and the refusal a call that must land before the handler returns.
  await message.setReject(reason);
  // The bytes are not wanted: stop the stream rather than leave its sender waiting on it.
  await message.raw.cancel().catch(() => {});
  log.info("inbound.rejected", { size: message.rawSize });
  return { kind: "rejected", reason };
}

/** Kept bytes no row will name, removed: settled first, so the delete cannot overtake the put. */
async function forgetKept(env: Env, raw: RawMail) {
  await raw.stored;
  await forgetRaw(env.FILES, raw);
}

/** Refused once its bytes were kept (`confirmedInbox`): the bytes go again, the refusal as `reject`'s. */
async function unrouted(env: Env, message: ForwardableEmailMessage, raw: RawMail, reason: string) {
  await forgetKept(env, raw);
  return reject(message, reason);
}

/**
 * What reading the message (parsing it, reading a report in it) gave, or the error the message
 * made the reader throw. Reading does no I/O, so whatever it throws is the message's doing: the
 * message is recorded with the reason, never refused for a retry the sender would repeat for days.
 * Failures of ours (D1, R2) happen outside and still throw.
 */
async function attempt<T>(read: () => Promise<T>): Promise<T | Error> {
  try {
    return await read();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

const parsed = (bytes: Uint8Array) => attempt(() => parseMail(bytes));

/**
 * A report, recorded, and applied to `email` (found by the caller) when it names one: to the
 * recipient `recipientTag` names, or, for a key that names the email only, to its only recipient.
 * It belongs to the email's workspace, else to `accountId`'s (the workspace whose inbox received
 * it), so that a report naming none of its emails is still listed there.
 */
async function report(
  db: Db,
  secret: string,
  announce: AnnounceSince,
  message: ForwardableEmailMessage,
  raw: RawMail,
  mail: InboundMail | Error,
  found: { email: ReportedEmail | null; recipientTag: string | null; accountId: string | null },
  options: ReadOptions = {},
): Promise<Outcome> {
  const isMail = !(mail instanceof Error);
  const { email } = found;
  const named = email ? await namedRecipient(secret, email, found.recipientTag) : null;
  const read = isMail
    ? await attempt(() => readReport(mail, named, { ...options, mailFrom: message.from }))
    : mail;
  const unreadable = read instanceof Error ? read.message : null;
  // What the report writes names the raw key.
  await raw.stored;
  const outcome = await receiveReport(
    db,
    {
      report: read instanceof Error ? null : read,
      unreadable,
      email,
      accountId: email?.accountId ?? found.accountId,
      named,
      envelope: { mailFrom: message.from, rcptTo: message.to },
      messageId: isMail ? mail.messageId : null,
      raw,
      now: Date.now(),
    },
    announce,
  );
  return { kind: "report", outcome };
}

/**
 * A mail for an inbox, its bytes already in R2: parsed, then a message, a duplicate or a recorded
 * drop; or, when it is a bounce or complaint report beyond doubt, handled as one (found by the
 * returned original's Message-ID in the workspace) and never a ticket. A customer's mail must
 * never be swallowed as a bounce: only a declared report (`multipart/report` with its
 * delivery-status or feedback-report part) is one whatever it names, and is recorded in the
 * workspace even when it names none of its emails; a notice in prose, or report parts in another
 * container, is one only when a mail server sent it (null envelope sender, or a mailer daemon's
 * or postmaster's address: never a display name) and it names an email of this workspace by
 * Message-ID. Anything else stays a customer's mail.
 */
async function accept(
  ctx: InboundContext,
  route: MailboxRoute,
  message: ForwardableEmailMessage,
  messageId: string,
  raw: RawMail,
  announce: AnnounceSince,
): Promise<Outcome> {
  const envelope = { mailFrom: message.from, rcptTo: message.to, inboxId: route.inboxId };
  const mail = await parsed(raw.bytes);
  if (mail instanceof Error) {
    await recordDropped(ctx, envelope, raw, { reason: "parse_failed", detail: mail.message });
    return { kind: "dropped", reason: "parse_failed" };
  }
  const options = { inbox: true };
  const reportOf = await attempt(() => readReport(mail, null, { ...options, mailFrom: message.from }));
  if (reportOf instanceof Error) {
    const detail = `Its report part could not be read: ${reportOf.message}`;
    await recordDropped(ctx, envelope, raw, { reason: "parse_failed", detail, messageId: mail.messageId });
    return { kind: "dropped", reason: "parse_failed" };
  }
  if (reportOf && (reportOf.declared || sentByDaemon(mail, message.from))) {
    const original = reportOf.originalMessageId;
    const email = original ? await emailByMessageId(ctx.db, ctx.accountId, original) : null;
    if (reportOf.declared || email) {
      // The rare report to an inbox confirms the inbox in a read of its own (a mail's is in `receive`).
      const confirmed = confirmedInbox(route, await findInbox(ctx.db, ctx.accountId, route.inboxId));
      if ("reason" in confirmed) return unrouted(ctx.env, message, raw, confirmed.reason);
      const found = { email, recipientTag: null, accountId: ctx.accountId };
      return report(ctx.db, ctx.env.ENCRYPTION_KEY, announce, message, raw, mail, found, options);
    }
  }
  const outcome = await receive(ctx, route, { mailFrom: message.from, messageId }, raw, mail);
  if (outcome.kind === "unrouted") return unrouted(ctx.env, message, raw, outcome.reason);
  if (outcome.kind === "dropped")
    await recordDropped(ctx, envelope, raw, { reason: outcome.reason, messageId: mail.messageId });
  if (outcome.kind === "duplicate") await forgetKept(ctx.env, raw);
  return outcome;
}

/**
 * Keeps the bytes while `work` runs: their R2 put runs alongside parsing and the reads, and what
 * writes a row naming them awaits it (`raw.stored`). A failure of ours (the put's too, even when
 * `work` did not wait for it) removes the bytes again and throws (the sender retries).
 */
async function keptWhile(
  env: Env,
  message: ForwardableEmailMessage,
  key: string,
  work: (raw: RawMail) => Promise<Outcome>,
): Promise<Outcome> {
  const bytes = await readRaw(message.raw);
  const stored = keepRaw(env.FILES, { key, bytes });
  // Awaited below whatever happens; this only keeps a failure from counting as unhandled meanwhile.
  stored.catch(() => {});
  const raw = { key, bytes, stored };
  try {
    const outcome = await work(raw);
    await stored;
    log.info("inbound.received", { outcome: outcome.kind, size: raw.bytes.length });
    return outcome;
  } catch (error) {
    await stored.catch(() => {});
    await forgetRaw(env.FILES, raw);
    log.error("inbound.failed", describeError(error));
    throw error;
  }
}

/**
 * The Worker's email() handler. Refusals are permanent (`setReject`: over 25 MiB, an unknown
 * recipient, a forged reply or bounce address) and cost nothing. Anything else is kept in R2
 * first, then parsed and stored. A failure of ours (D1, R2) throws: the sending server sees a
 * temporary error and retries later, so no mail is lost silently; the bytes of the failed attempt
 * are removed.
 */
export async function handleEmail(
  message: ForwardableEmailMessage,
  env: Env,
  execution: ExecutionContext,
): Promise<Outcome> {
  if (message.rawSize > MAX_INBOUND_BYTES) return reject(message, TOO_LARGE);
  const route = await routeRecipient(env, env.ENCRYPTION_KEY, message.to);
  if (route.kind === "reject") return reject(message, route.reason);
  if (route.kind === "bounce") {
    // Its workspace is known once the email is found: the report goes to that workspace's shard.
    const { env: shardEnv, email } = await bouncedEmail(env, route.emailId);
    const key = `reports/${route.emailId}/${crypto.randomUUID()}.eml`;
    return keptWhile(env, message, key, async (raw) =>
      report(
        createDb(shardEnv.DB),
        env.ENCRYPTION_KEY,
        announcerOf(shardEnv, execution),
        message,
        raw,
        await parsed(raw.bytes),
        { email, recipientTag: route.recipientTag, accountId: null },
      ),
    );
  }
  const ctx: InboundContext = {
    db: route.db,
    // Its DB is the inbox's shard, for what opens the binding itself (announcing email events).
    env: envFor(env, route.shard),
    accountId: route.accountId,
    now: Date.now(),
    defer: (work) => execution.waitUntil(work),
  };
  const messageId = newId("msg");
  return keptWhile(env, message, rawKeyOf(ctx.accountId, messageId), (raw) =>
    accept(ctx, route, message, messageId, raw, announcerOf(ctx.env, execution)),
  );
}
