import type { Db } from "../../db/client";
import { AppError, conflict, notFound } from "../../lib/errors";
import type { Idempotency } from "../../lib/idempotency";
import { flatList, type OffsetParams, standardList } from "../../lib/pagination";
import { parseAddress } from "../../mail/address";
import type { AccountRow } from "../accounts/accounts.repo";
import { emailNotFound } from "./email-past-retention";
import { type PreparedEmails, prepareEmails } from "./emails.accept";
import { toEmail, toEmailSummary } from "./emails.dto";
import type { NormalizedEmail } from "./emails.input";
import {
  cancelEmail,
  type EmailFilter,
  findEmail,
  findEmailWithRecipients,
  listEmails,
  type NewEmailRow,
  rescheduleEmail,
  type ShownEmail,
  scheduledQueries,
} from "./emails.repo";
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
