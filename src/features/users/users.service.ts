import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { directoryDb } from "../../db/directory/client";
import { forgetMemberEmail, nameMemberEmail } from "../../db/directory/member-emails";
import { loginTokens, sessions, tickets, users } from "../../db/schema";
import { AppError, conflict, notFound, teamMemberLimitReached } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { countedList } from "../../lib/pagination";
import { isUniqueViolation } from "../../lib/unique-violation";
import { findPendingInvitationByEmail } from "../invitations/invitations.repo";
import { assertMayGrant, notAnOwnerUnlessOwner, ownerRequired, type TeamActor } from "./owner-rule";
import { seatAvailable, teamMemberLimit } from "./team-limit";
import { toUser } from "./users.dto";
import {
  findUser,
  findUserByEmail,
  insertUserIfSeat,
  listUsers,
  notLastOwner,
  type UserRow,
} from "./users.repo";
import type { AddMemberInput, UpdateUserInput } from "./users.schemas";

export interface PeopleContext {
  db: Db;
  accountId: string;
  now: number;
}

/** What adds or removes people: the directory names every workspace a person's email belongs to. */
export interface TeamContext extends PeopleContext {
  env: Pick<Env, "DIRECTORY">;
}

const lastOwner = () =>
  conflict(
    "last_owner",
    "Last owner",
    "A workspace keeps at least one active owner: make another user owner first.",
  );

export const alreadyMember = (email: string) =>
  conflict("already_member", "Already a member", `${email} is already a user of this workspace.`);

export const invitationPending = (email: string) =>
  conflict(
    "invitation_pending",
    "Invitation pending",
    `${email} has a pending invitation; resend or revoke it instead.`,
  );

export async function listAccountUsers(ctx: PeopleContext) {
  return countedList((await listUsers(ctx.db, ctx.accountId)).map(toUser));
}

async function ownUser(ctx: PeopleContext, id: string): Promise<UserRow> {
  const user = await findUser(ctx.db, ctx.accountId, id);
  if (!user) throw notFound(`User ${id}`);
  return user;
}

export async function getUser(ctx: PeopleContext, id: string) {
  return toUser(await ownUser(ctx, id));
}

/** 409 when the email is a user or has a pending invitation (emails are compared lowercase). */
export async function assertNewPerson(ctx: PeopleContext, email: string) {
  if (await findUserByEmail(ctx.db, ctx.accountId, email)) throw alreadyMember(email);
  if (await findPendingInvitationByEmail(ctx.db, ctx.accountId, email, ctx.now))
    throw invitationPending(email);
}

/**
 * POST /v1/members: the user exists at once, if a seat is free; only an owner adds an owner. The
 * email is named in the directory first (POST /login finds the workspace there); a refused add
 * leaves the name, which finds no user and goes if the email is ever removed from the workspace.
 */
export async function addMember(ctx: TeamContext, actor: TeamActor, input: AddMemberInput) {
  assertMayGrant(actor, input.role);
  await assertNewPerson(ctx, input.email);
  const limit = await teamMemberLimit(ctx.db, ctx.accountId);
  const row = {
    id: newId("usr"),
    accountId: ctx.accountId,
    email: input.email,
    name: input.name ?? null,
    role: input.role,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await nameMemberEmail(directoryDb(ctx.env), row.email, ctx.accountId);
  let inserted: Array<{ id: string }>;
  try {
    inserted = await ctx.db.all<{ id: string }>(
      insertUserIfSeat(row, seatAvailable(ctx.accountId, limit, ctx.now)),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyMember(input.email);
    throw error;
  }
  if (inserted.length === 0) throw teamMemberLimitReached();
  return getUser(ctx, row.id);
}

/**
 * PATCH: name, role, status, availability and capacity. Only an owner makes an owner or changes an owner's role or status
 * (403 `owner_required`); the target's role is checked by the statement itself. Demoting or
 * disabling the last active owner is refused (409) by the statement too, so two owners demoting
 * the last two owners at once cannot both succeed. Disabling ends the user's sessions and unused
 * sign-in links in the same batch.
 */
export async function updateUser(ctx: PeopleContext, actor: TeamActor, id: string, input: UpdateUserInput) {
  assertMayGrant(actor, input.role);
  await ownUser(ctx, id);
  const losesOwnership = (input.role !== undefined && input.role !== "owner") || input.status === "disabled";
  const touchesStanding = input.role !== undefined || input.status !== undefined;
  const where = and(
    eq(users.id, id),
    eq(users.accountId, ctx.accountId),
    touchesStanding ? notAnOwnerUnlessOwner(actor) : undefined,
    losesOwnership ? notLastOwner(ctx.accountId, id) : undefined,
  );
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.role !== undefined ? { role: input.role } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.available !== undefined ? { available: input.available } : {}),
    ...(input.capacity !== undefined ? { capacity: input.capacity } : {}),
    updatedAt: ctx.now,
  };
  const disabled = sql`EXISTS (SELECT 1 FROM users WHERE id = ${id} AND status = 'disabled')`;
  const [updated] = await runBatch(ctx.db, [
    ctx.db.update(users).set(changes).where(where),
    ctx.db.delete(sessions).where(and(eq(sessions.userId, id), disabled)),
    ctx.db.delete(loginTokens).where(and(eq(loginTokens.userId, id), disabled)),
  ]);
  if (!updated?.meta.changes) await refusal(ctx, actor, id, losesOwnership);
  return getUser(ctx, id);
}

/** Why a guarded write of a user changed nothing, read as the user is now. */
async function refusal(
  ctx: PeopleContext,
  actor: TeamActor,
  id: string,
  losesOwnership: boolean,
): Promise<never> {
  const user = await ownUser(ctx, id);
  if (user.role === "owner" && actor !== "owner") throw ownerRequired();
  if (losesOwnership && user.role === "owner" && user.status === "active") throw lastOwner();
  throw notFound(`User ${id}`);
}

/**
 * DELETE: the user goes, with their sessions and sign-in links (cascade), and every ticket
 * assigned to them is unassigned in the same batch; then their email's name in the directory (the
 * names of their sessions and links open nothing now, and the minute cron prunes them as they
 * expire). Only an owner removes an owner (403); the last active owner stays (409).
 */
export async function removeUser(ctx: TeamContext, actor: TeamActor, id: string) {
  const user = await ownUser(ctx, id);
  const ownerOnly =
    actor === "owner" ? sql`1` : sql`NOT EXISTS (SELECT 1 FROM users WHERE id = ${id} AND role = 'owner')`;
  const guard = and(notLastOwner(ctx.accountId, id), ownerOnly) as SQL;
  const [, removed] = await runBatch(ctx.db, [
    ctx.db
      .update(tickets)
      .set({ assigneeId: null, updatedAt: ctx.now })
      .where(and(eq(tickets.accountId, ctx.accountId), eq(tickets.assigneeId, id), guard)),
    ctx.db.delete(users).where(and(eq(users.id, id), eq(users.accountId, ctx.accountId), guard)),
  ]);
  if (!removed?.meta.changes) await refusal(ctx, actor, id, true);
  await forgetMemberEmail(directoryDb(ctx.env), user.email, ctx.accountId);
  return { id, deleted: true as const };
}

/** Ticket assignees: an active user of the workspace, else 400 naming the field. */
export async function assertAssignable(ctx: PeopleContext, userId: string | null | undefined, path: string) {
  if (userId === null || userId === undefined) return;
  const user = await findUser(ctx.db, ctx.accountId, userId);
  if (user?.status === "active") return;
  const message = user ? "names a disabled user" : "names no user of this workspace";
  throw new AppError(400, "validation_error", "Invalid request", `${path}: ${message}.`, {
    details: [{ path, message }],
  });
}
