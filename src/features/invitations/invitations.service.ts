import { and, eq, gt, lt, lte, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { runBatch } from "../../db/client";
import { directoryDb } from "../../db/directory/client";
import { forgetTokenHashes, nameTokenHashes } from "../../db/directory/token-hashes";
import { invitations } from "../../db/schema";
import { randomBase64Url, sha256Hex } from "../../lib/crypto";
import { conflict, notFound, teamMemberLimitReached } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { type OffsetParams, standardList } from "../../lib/pagination";
import { afterResponse, type Defer } from "../../lib/request-context";
import { isUniqueViolation } from "../../lib/unique-violation";
import { findAccount } from "../accounts/accounts.repo";
import { enqueueEmails } from "../emails/enqueue";
import { systemEmail } from "../emails/system-mail";
import { assertMayGrant, type TeamActor } from "../users/owner-rule";
import { seatAvailable, teamMemberLimit } from "../users/team-limit";
import { assertNewPerson, invitationPending } from "../users/users.service";
import {
  countSentStatement,
  emailsSentThisHour,
  hourHasRoom,
  hourlyLimitReached,
  INVITATION_EMAILS_PER_HOUR,
  MAX_RESENDS,
  RESEND_COOLDOWN_MS,
  resendTooSoon,
  tooManyResends,
} from "./invitation-limits";
import { invitationMail } from "./invitation-mail";
import { toInvitation } from "./invitations.dto";
import {
  expireStale,
  findInvitation,
  type InvitationRow,
  type InvitationStatus,
  insertInvitationIfSeat,
  invitationQueries,
} from "./invitations.repo";
import type { CreateInvitationInput } from "./invitations.schemas";

export const INVITATION_TTL_MS = 7 * 86_400_000;

export interface InvitationContext {
  db: Db;
  env: Pick<Env, "DIRECTORY" | "EMAIL_QUEUE" | "PUBLIC_BASE_URL" | "SYSTEM_FROM">;
  accountId: string;
  now: number;
  /** Where the request has one: a replaced link is forgotten in the directory after the response. */
  defer?: Defer;
}

/** Forgets a link in the directory after the response: its invitation no longer opens with it, whatever is left there. */
const forgetLinkLater = (ctx: InvitationContext, tokenHash: string) =>
  afterResponse(ctx.defer, "invitations.forget_link_failed", { account_id: ctx.accountId }, () =>
    forgetTokenHashes(directoryDb(ctx.env), "invitation", [tokenHash]),
  );

/** A fresh link token: 256 random bits; only its SHA-256 is stored. */
async function newToken() {
  const token = randomBase64Url(32);
  return { token, tokenHash: await sha256Hex(token) };
}

/**
 * The invitation email, for the batch of the invitation's own conditional write: it is written
 * only if the invitation row holds this token (it got its seat, or its resend went through), so
 * the invitation and the email telling of it commit together or not at all.
 */
async function invitationEmail(ctx: InvitationContext, row: InvitationRow, token: string) {
  const account = await findAccount(ctx.db, ctx.accountId);
  const link = `${ctx.env.PUBLIC_BASE_URL.replace(/\/+$/, "")}/invitations/${token}`;
  const mail = invitationMail(row.email, account?.name ?? "a workspace", row.role, link, row.expiresAt);
  const written = sql`EXISTS (SELECT 1 FROM invitations WHERE id = ${row.id} AND token_hash = ${row.tokenHash})`;
  return { ...systemEmail(ctx.db, ctx.env, ctx.accountId, mail, ctx.now, written), written };
}

/**
 * POST /v1/invitations: 409 for a member or a pending invitation, 429 at the team-member limit;
 * only an owner invites an owner (403). `inviter`: the user or API key inviting, and what it acts as.
 * The link's hash is named in the directory before the invitation is written in the shard (so
 * /invitations/{token} finds its workspace), and forgotten again when the invitation is refused.
 */
export async function createInvitation(
  ctx: InvitationContext,
  inviter: { id: string; actor: TeamActor },
  input: CreateInvitationInput,
) {
  assertMayGrant(inviter.actor, input.role);
  const invitedBy = inviter.id;
  await assertNewPerson(ctx, input.email);
  const limit = await teamMemberLimit(ctx.db, ctx.accountId);
  const { token, tokenHash } = await newToken();
  const row: InvitationRow = {
    id: newId("inv"),
    accountId: ctx.accountId,
    email: input.email,
    role: input.role,
    status: "pending",
    tokenHash,
    expiresAt: ctx.now + INVITATION_TTL_MS,
    invitedBy,
    acceptedAt: null,
    resendCount: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  const email = await invitationEmail(ctx, row, token);
  const admitted = and(
    seatAvailable(ctx.accountId, limit, ctx.now),
    hourHasRoom(ctx.accountId, ctx.now),
  ) as SQL;
  const directory = directoryDb(ctx.env);
  await nameTokenHashes(directory, "invitation", [
    { tokenHash, accountId: ctx.accountId, expiresAt: row.expiresAt },
  ]);
  let inserted: { results: unknown[] } | undefined;
  try {
    [, inserted] = await runBatch(ctx.db, [
      expireStale(ctx.accountId, input.email, ctx.now),
      insertInvitationIfSeat(row, admitted),
      countSentStatement(ctx.accountId, ctx.now, email.written),
      ...email.statements,
    ]);
  } catch (error) {
    await forgetTokenHashes(directory, "invitation", [tokenHash]);
    // A concurrent invitation of the same email won the one-pending-per-email index.
    if (isUniqueViolation(error)) throw invitationPending(input.email);
    throw error;
  }
  if (!inserted?.results.length) {
    await forgetTokenHashes(directory, "invitation", [tokenHash]);
    const sent = await emailsSentThisHour(ctx.db, ctx.accountId, ctx.now);
    throw sent >= INVITATION_EMAILS_PER_HOUR ? hourlyLimitReached(sent, ctx.now) : teamMemberLimitReached();
  }
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [email.row], ctx.now);
  return toInvitation(row, ctx.now);
}

export async function listAccountInvitations(
  ctx: InvitationContext,
  status: InvitationStatus | undefined,
  page: OffsetParams,
) {
  const { page: query, total } = invitationQueries(ctx.db, ctx.accountId, status, page, ctx.now);
  const [rows, totals] = await ctx.db.batch([query, total]);
  return standardList(
    rows.map((row) => toInvitation(row, ctx.now)),
    totals[0]?.total ?? 0,
    page,
  );
}

async function ownInvitation(ctx: InvitationContext, id: string) {
  const row = await findInvitation(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Invitation ${id}`);
  return row;
}

const notPending = (row: InvitationRow, now: number) =>
  conflict(
    "invitation_not_pending",
    "Invitation not pending",
    `Invitation ${row.id} is ${toInvitation(row, now).status}; only a pending invitation can be resent or revoked.`,
  );

const pendingWhere = (ctx: InvitationContext, id: string) =>
  and(
    eq(invitations.id, id),
    eq(invitations.accountId, ctx.accountId),
    eq(invitations.status, "pending"),
    gt(invitations.expiresAt, ctx.now),
  );

/**
 * DELETE /v1/invitations/{id}: revokes a pending invitation (its link stops working); frees its
 * seat. The link's name goes from the directory after the shard says revoked.
 */
export async function revokeInvitation(ctx: InvitationContext, id: string) {
  const row = await ownInvitation(ctx, id);
  const [updated] = await ctx.db
    .update(invitations)
    .set({ status: "revoked", updatedAt: ctx.now })
    .where(pendingWhere(ctx, id))
    .returning();
  if (!updated) throw notPending(row, ctx.now);
  await forgetLinkLater(ctx, updated.tokenHash);
  return toInvitation(updated, ctx.now);
}

/**
 * POST /v1/invitations/{id}/resend: a new link (the old one stops working) and a new 7-day expiry,
 * at most MAX_RESENDS times, RESEND_COOLDOWN_MS after the last email, within the hourly limit; the
 * one conditional update checks all three, so concurrent resends cannot pass them. The new link is
 * named in the directory first; then the one it replaced is forgotten (or, refused, the new one).
 */
export async function resendInvitation(ctx: InvitationContext, id: string) {
  const row = await ownInvitation(ctx, id);
  const { token, tokenHash } = await newToken();
  const renewed = {
    ...row,
    tokenHash,
    expiresAt: ctx.now + INVITATION_TTL_MS,
    resendCount: row.resendCount + 1,
    updatedAt: ctx.now,
  };
  const email = await invitationEmail(ctx, renewed, token);
  const directory = directoryDb(ctx.env);
  await nameTokenHashes(directory, "invitation", [
    { tokenHash, accountId: ctx.accountId, expiresAt: renewed.expiresAt },
  ]);
  const [updated] = await runBatch(ctx.db, [
    ctx.db
      .update(invitations)
      .set({
        tokenHash,
        expiresAt: renewed.expiresAt,
        resendCount: sql`${invitations.resendCount} + 1`,
        updatedAt: ctx.now,
      })
      .where(
        and(
          pendingWhere(ctx, id),
          // The link replaced is the one read, so the one forgotten below.
          eq(invitations.tokenHash, row.tokenHash),
          lt(invitations.resendCount, MAX_RESENDS),
          lte(invitations.updatedAt, ctx.now - RESEND_COOLDOWN_MS),
          hourHasRoom(ctx.accountId, ctx.now),
        ),
      )
      .returning({ id: invitations.id }),
    countSentStatement(ctx.accountId, ctx.now, email.written),
    ...email.statements,
  ]);
  const replaced = Boolean(updated?.results.length);
  await forgetLinkLater(ctx, replaced ? row.tokenHash : tokenHash);
  if (!replaced) throw await resendRefusal(ctx, id);
  await enqueueEmails(ctx.env.EMAIL_QUEUE, [email.row], ctx.now);
  return toInvitation(renewed, ctx.now);
}

/** Why a resend changed nothing, read as the invitation is now. */
async function resendRefusal(ctx: InvitationContext, id: string) {
  const row = await ownInvitation(ctx, id);
  if (toInvitation(row, ctx.now).status !== "pending") return notPending(row, ctx.now);
  if (row.resendCount >= MAX_RESENDS) return tooManyResends(row.resendCount);
  if (row.updatedAt > ctx.now - RESEND_COOLDOWN_MS) return resendTooSoon(row.updatedAt, ctx.now);
  return hourlyLimitReached(await emailsSentThisHour(ctx.db, ctx.accountId, ctx.now), ctx.now);
}
