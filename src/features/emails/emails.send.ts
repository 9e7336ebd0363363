import { type SQL, sql } from "drizzle-orm";
import { type Idempotency, idempotencyOf, storeAnswer, storedAnswer } from "../../lib/idempotency";
import { iso, isoOrNull } from "../../lib/time";
import { type Filled, fillFromCache } from "../templates/send";
import { acceptEmails, StaleSend } from "./emails.accept-once";
import { type NormalizedEmail, normalizeEmail } from "./emails.input";
import { normalizeRaw, type RawEnvelope } from "./emails.raw";
import type { EmailRow, NewEmailRow } from "./emails.repo";
import type { BatchEmailRequest, SendEmailRequest } from "./emails.schemas";
import type { EmailContext } from "./emails.service";
import { readTemplates, resolvedInput } from "./emails.templated";
import { enqueueEmails } from "./enqueue";

// The API's sends (POST /v1/emails, /batch and /raw): replay, template, accept and queue.

const sentAnswer = (row: NewEmailRow) => ({
  id: row.id,
  status: row.status,
  scheduled_at: isoOrNull(row.scheduledAt ?? null),
  created_at: iso(row.createdAt),
});

export interface Answer {
  status: 200;
  body: unknown;
}

/**
 * POST /v1/emails and /v1/emails/batch share this: validate, replay an idempotent answer if there
 * is one, else check, store and count in one batch (acceptEmails) and queue. Answers 200 with
 * Resend's shapes. Emails through a template read it first (readTemplates: one round trip with the
 * idempotency key's, for all of them), unless sent without a key and read before (fillFromCache).
 */
async function send(
  ctx: EmailContext,
  requests: SendEmailRequest[],
  body: unknown,
  idempotencyKey: string | undefined,
  source: string,
  answerOf: (rows: NewEmailRow[]) => unknown,
): Promise<Answer> {
  const prefix = (i: number) => (source === "batch" ? `body.${i}.` : "body.");
  if (!requests.some((request) => request.template)) {
    const emails = requests.map((input, i) =>
      normalizeEmail(resolvedInput(input, prefix(i)), ctx.now, prefix(i)),
    );
    return sendNormalized(ctx, emails, body, idempotencyKey, source, answerOf);
  }
  const idem = await idempotencyOf(idempotencyKey, body);
  const cachedAnswer = idem ? null : await sendFromCache(ctx, requests, source, answerOf, prefix);
  if (cachedAnswer) return cachedAnswer;
  const read = await readTemplates(ctx, requests, idem, prefix);
  if ("replay" in read) return { status: 200, body: read.replay };
  const emails = normalizedFilled(ctx, read.filled, prefix);
  return acceptAndQueue(ctx, emails, idem, source, answerOf);
}

const normalizedFilled = (
  ctx: EmailContext,
  filled: Array<Filled<SendEmailRequest>>,
  prefix: (i: number) => string,
) =>
  filled.map(({ email, template }, i) => ({
    ...normalizeEmail(resolvedInput(email, prefix(i)), ctx.now, prefix(i)),
    ...(template ? { template } : {}),
  }));

/**
 * A send without a key whose templates this instance read before: nothing to read before the
 * accepting batch, which checks they are still what is published (one round trip in all). Null
 * when they were not all kept, or changed (StaleSend), or the kept versions refuse the send: a
 * refusal is never answered from a copy (the template may declare that variable now), so the
 * caller reads them afresh. Refusals of the accepting batch itself (quota, domain, suppressed)
 * were decided with the templates confirmed, and stand.
 */
async function sendFromCache(
  ctx: EmailContext,
  requests: SendEmailRequest[],
  source: string,
  answerOf: (rows: NewEmailRow[]) => unknown,
  prefix: (i: number) => string,
): Promise<Answer | null> {
  const fromCache = fillFromCache(ctx.accountId, requests, prefix);
  if (!fromCache) return null;
  let emails: NormalizedEmail[];
  try {
    emails = normalizedFilled(ctx, fromCache.build(), prefix);
  } catch {
    fromCache.forget();
    return null;
  }
  try {
    return await acceptAndQueue(ctx, emails, null, source, answerOf, fromCache.guard);
  } catch (error) {
    if (!(error instanceof StaleSend)) throw error;
    fromCache.forget();
    return null;
  }
}

async function sendNormalized(
  ctx: EmailContext,
  emails: NormalizedEmail[],
  body: unknown,
  idempotencyKey: string | undefined,
  source: string,
  answerOf: (rows: NewEmailRow[]) => unknown,
): Promise<Answer> {
  const idem = await idempotencyOf(idempotencyKey, body);
  // A key costs a read of its own before the accepting batch: its stored answer is replayed
  // before any check, and a batch cannot answer with what a read in it found.
  const replay = idem && (await storedAnswer(ctx.db, ctx.accountId, idem, ctx.now));
  if (replay) return { status: 200, body: replay.body };
  return acceptAndQueue(ctx, emails, idem, source, answerOf);
}

async function acceptAndQueue(
  ctx: EmailContext,
  emails: NormalizedEmail[],
  idem: Idempotency | null,
  source: string,
  answerOf: (rows: NewEmailRow[]) => unknown,
  guard?: SQL,
): Promise<Answer> {
  let rows: NewEmailRow[];
  try {
    rows = await acceptEmails(
      { db: ctx.db, files: ctx.env.FILES, accountId: ctx.accountId, now: ctx.now },
      emails,
      source,
      idem ? (drafts, written) => rememberAnswer(ctx, idem, answerOf(drafts), written) : undefined,
      guard,
    );
  } catch (error) {
    // A concurrent request with the same key won the race: answer what it answered.
    const raced = idem && (await storedAnswer(ctx.db, ctx.accountId, idem, ctx.now).catch(() => null));
    if (raced) return { status: 200, body: raced.body };
    throw error;
  }
  await enqueueEmails(ctx.env.EMAIL_QUEUE, rows as EmailRow[], ctx.now);
  return { status: 200, body: answerOf(rows) };
}

/**
 * Stores the idempotent answer in the accepting batch, and takes it out again in the same batch
 * when the emails were refused (`written` false): only an accepted send is replayed, a refusal is
 * answered afresh. Storing fails on a concurrent twin's key, which rolls the whole batch back.
 */
function rememberAnswer(ctx: EmailContext, idem: Idempotency, answer: unknown, written: SQL) {
  return [
    storeAnswer(ctx.db, ctx.accountId, idem, 200, answer, ctx.now),
    sql`DELETE FROM idempotency_keys
        WHERE account_id = ${ctx.accountId} AND key = ${idem.key} AND NOT ${written}`,
  ];
}

export function sendEmail(ctx: EmailContext, input: SendEmailRequest, idempotencyKey: string | undefined) {
  return send(ctx, [input], input, idempotencyKey, "api", (rows) => sentAnswer(rows[0] as NewEmailRow));
}

export function sendBatch(
  ctx: EmailContext,
  inputs: BatchEmailRequest[],
  idempotencyKey: string | undefined,
) {
  return send(ctx, inputs, inputs, idempotencyKey, "batch", (rows) => ({ data: rows.map(sentAnswer) }));
}

/**
 * POST /v1/emails/raw: a relayed message, parsed into the same email POST /v1/emails would make,
 * then every check of that route in the same order. The idempotency hash covers envelope and bytes.
 */
export async function sendRaw(
  ctx: EmailContext,
  raw: Uint8Array,
  envelope: RawEnvelope,
  body: unknown,
  idempotencyKey: string | undefined,
) {
  const email = await normalizeRaw(raw, envelope);
  return sendNormalized(ctx, [email], body, idempotencyKey, "smtp", (rows) =>
    sentAnswer(rows[0] as NewEmailRow),
  );
}
