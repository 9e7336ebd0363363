import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { AppError, conflict, notFound } from "../../lib/errors";
import { type Idempotency, idempotencyOf, storeAnswer, storedAnswer } from "../../lib/idempotency";
import { flatList, type OffsetParams, standardList } from "../../lib/pagination";
import { iso, isoOrNull } from "../../lib/time";
import { parseAddress } from "../../mail/address";
import type { AccountRow } from "../accounts/accounts.repo";
import { emailNotFound } from "./email-past-retention";
import { type PreparedEmails, prepareEmails } from "./emails.accept";
import { acceptEmails } from "./emails.accept-once";
import { toEmail, toEmailSummary } from "./emails.dto";
import { type NormalizedEmail, normalizeEmail } from "./emails.input";
import { normalizeRaw, type RawEnvelope } from "./emails.raw";
import {
  cancelEmail,
  type EmailFilter,
  type EmailRow,
  findEmail,
  findEmailWithRecipients,
  listEmails,
  type NewEmailRow,
  rescheduleEmail,
  type ShownEmail,
  scheduledQueries,
} from "./emails.repo";
import type { BatchEmailRequest, SendEmailRequest } from "./emails.schemas";
import { readTemplates, resolvedInput } from "./emails.templated";
import { enqueueEmails } from "./enqueue";
import { messageKey } from "./message-key";
import { loadSendState, type SendState } from "./send-state";
import { isSystemEmail } from "./system-mail";

export interface EmailContext {
  db: Db;
  env: Pick<Env, "FILES" | "EMAIL_QUEUE">;
  accountId: string;
  now: number;
}

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
 * idempotency key's, for all of them).
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
  const read = await readTemplates(ctx, requests, idem, prefix);
  if ("replay" in read) return { status: 200, body: read.replay };
  const emails = read.filled.map(({ email, template }, i) => ({
    ...normalizeEmail(resolvedInput(email, prefix(i)), ctx.now, prefix(i)),
    ...(template ? { template } : {}),
  }));
  return acceptAndQueue(ctx, emails, idem, source, answerOf);
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
): Promise<Answer> {
  let rows: NewEmailRow[];
  try {
    rows = await acceptEmails(
      { db: ctx.db, files: ctx.env.FILES, accountId: ctx.accountId, now: ctx.now },
      emails,
      source,
      idem ? (drafts, written) => rememberAnswer(ctx, idem, answerOf(drafts), written) : undefined,
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

function stateFor(ctx: EmailContext, emails: NormalizedEmail[], idem: Idempotency | null) {
  const domains = [...new Set(emails.map((e) => e.fromDomain))];
  const recipients = [...new Set(emails.flatMap((e) => e.recipients))];
  return loadSendState(ctx.db, ctx.accountId, domains, recipients, idem, ctx.now);
}

const acceptContext = (ctx: EmailContext, account: AccountRow, state: SendState, inboxId?: string) => ({
  db: ctx.db,
  files: ctx.env.FILES,
  account,
  state,
  now: ctx.now,
  inboxId,
});

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

async function ownEmail(ctx: EmailContext, id: string) {
  const row = await findEmail(ctx.db, ctx.accountId, id);
  if (!row) throw await emailNotFound(ctx, id);
  return row;
}

export async function getEmail(ctx: EmailContext, id: string) {
  const found = await findEmailWithRecipients(ctx.db, ctx.accountId, id);
  if (!found) throw await emailNotFound(ctx, id);
  return toEmail(found.row, found.recipients);
}

/** An email not picked up for sending: every recipient is still `pending`. */
function unsent(row: ShownEmail) {
  const addresses = [row.to, row.cc, row.bcc]
    .flatMap((list) => JSON.parse(list) as string[])
    .flatMap((text) => parseAddress(text)?.address.toLowerCase() ?? []);
  return toEmail(
    row,
    [...new Set(addresses)].sort().map((address) => ({ address, state: "pending" as const, response: null })),
  );
}

/** The built MIME as it was handed to the transport. */
export async function emailContent(ctx: EmailContext, id: string): Promise<ReadableStream> {
  const row = await ownEmail(ctx, id);
  if (isSystemEmail(row)) {
    throw new AppError(
      404,
      "content_redacted",
      "Content redacted",
      `Email ${id} is the service's own mail (an invitation or sign-in link); its content is never served.`,
    );
  }
  const object = await ctx.env.FILES.get(messageKey(row.id));
  if (!object) {
    throw new AppError(
      404,
      "content_not_built",
      "Not built yet",
      `Email ${id} is ${row.status}; its message is built when it is sent.`,
    );
  }
  return object.body;
}

export async function listAccountEmails(
  ctx: EmailContext,
  filter: Omit<EmailFilter, "accountId">,
  page: OffsetParams,
) {
  const { rows, total } = await listEmails(
    ctx.db,
    { ...filter, accountId: ctx.accountId },
    page.limit,
    page.offset,
  );
  return standardList(rows.map(toEmailSummary), total, page);
}

export async function listScheduled(ctx: EmailContext, page: OffsetParams) {
  const { page: query, total } = scheduledQueries(ctx.db, ctx.accountId, page.limit, page.offset);
  const [rows, totals] = await ctx.db.batch([query, total]);
  return flatList(rows.map(toEmailSummary), totals[0]?.total ?? 0, page);
}

const MAX_SCHEDULE_AHEAD_MS = 30 * 86_400_000;

/** Moves a scheduled or not yet picked up email; a past time sends it at once. */
export async function reschedule(ctx: EmailContext, id: string, scheduledAt: string) {
  const at = Date.parse(scheduledAt);
  if (at > ctx.now + MAX_SCHEDULE_AHEAD_MS) {
    throw new AppError(
      400,
      "validation_error",
      "Invalid request",
      "scheduled_at must be at most 30 days ahead.",
      {
        details: [{ path: "body.scheduled_at", message: "must be at most 30 days ahead" }],
      },
    );
  }
  const current = await ownEmail(ctx, id);
  const row = await rescheduleEmail(ctx.db, ctx.accountId, id, Math.max(at, ctx.now), ctx.now);
  if (!row)
    throw conflict(
      "email_not_schedulable",
      "Email cannot be rescheduled",
      `Email ${id} is already ${current.status}.`,
    );
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [row], ctx.now);
  return unsent(row);
}

export async function cancel(ctx: EmailContext, id: string) {
  const current = await ownEmail(ctx, id);
  const row = await cancelEmail(ctx.db, ctx.accountId, id, ctx.now);
  if (!row)
    throw conflict(
      "email_not_cancellable",
      "Email cannot be cancelled",
      `Email ${id} is already ${current.status}.`,
    );
  return unsent(row);
}

/**
 * One email on behalf of another feature (ticket replies, compose): every check of POST /v1/emails
 * applies, without the HTTP envelope or idempotency. The caller commits it in its own batch with
 * `commitEmails` (so the email never exists without the message it carries) and then queues it
 * with `enqueueEmails`. `extraBytes`: storage the caller's batch adds, reserved together;
 * `inboxId`: the inbox of the ticket it replies in (the report counts a refusal under it).
 */
export async function prepareFeatureEmail(
  ctx: EmailContext,
  email: NormalizedEmail,
  source: string,
  extraBytes = 0,
  inboxId?: string,
): Promise<PreparedEmails & { row: NewEmailRow }> {
  const state = await stateFor(ctx, [email], null);
  if (!state.account) throw notFound(`Account ${ctx.accountId}`);
  const prepared = await prepareEmails(
    acceptContext(ctx, state.account, state, inboxId),
    [email],
    source,
    extraBytes,
  );
  return { ...prepared, row: prepared.rows[0] as NewEmailRow };
}
