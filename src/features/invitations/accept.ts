import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import type { DirectoryDb } from "../../db/directory/client";
import { nameMemberWithSession } from "../../db/directory/member-emails";
import { workspaceOfTokenHash } from "../../db/directory/token-hashes";
import { sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import type { WorkspaceDbOf } from "../../lib/request-context-middleware";
import { isUniqueViolation } from "../../lib/unique-violation";
import { findAccount } from "../accounts/accounts.repo";
import { newSession } from "../sessions/session";
import { invitationStatus } from "./invitations.dto";
import { findInvitationByTokenHash } from "./invitations.repo";

/**
 * The pending invitation a link opens: the directory names its workspace, which `enter` reaches,
 * and that workspace's shard holds the invitation (scoped by the workspace the directory named).
 */
async function pendingInvitation(
  directory: DirectoryDb,
  enter: WorkspaceDbOf,
  tokenHash: string,
  now: number,
) {
  const named = await workspaceOfTokenHash(directory, "invitation", tokenHash);
  const db = named && (await enter(named.accountId));
  const row = db && named ? await findInvitationByTokenHash(db, named.accountId, tokenHash) : null;
  return db && row && invitationStatus(row, now) === "pending" ? { db, row } : null;
}

/** What the invitation page shows for a token: the invitation while it can be accepted. */
export async function invitationForToken(
  directory: DirectoryDb,
  enter: WorkspaceDbOf,
  token: string,
  now: number,
) {
  const found = await pendingInvitation(directory, enter, await sha256Hex(token), now);
  if (!found) return null;
  const account = await findAccount(found.db, found.row.accountId);
  return { email: found.row.email, role: found.row.role, workspace: account?.name ?? "a workspace" };
}

export type AcceptOutcome =
  | { kind: "accepted"; session: { token: string; expiresAt: number } }
  | { kind: "unusable" }
  | { kind: "already_member" };

/**
 * Accepts an invitation. The new member's email and first session are named in the directory
 * first (a crash after leaves names that find nobody), then one batch in the workspace's shard:
 * the user is created from the invitation only while it is pending and unexpired, the invitation
 * is marked accepted only if that user now exists, and the new user is signed in. Two concurrent
 * accepts cannot both succeed (the second finds it accepted). The seat was held by the
 * invitation, so no limit check is needed. The link's name stays until it expires (the minute cron
 * prunes it): an accepted invitation opens nothing.
 */
export async function acceptInvitation(
  directory: DirectoryDb,
  enter: WorkspaceDbOf,
  token: string,
  name: string | null,
  now: number,
): Promise<AcceptOutcome> {
  const tokenHash = await sha256Hex(token);
  const found = await pendingInvitation(directory, enter, tokenHash, now);
  if (!found) return { kind: "unusable" };
  const { db, row } = found;
  const userId = newId("usr");
  const session = await newSession(userId, row.accountId, now);
  await nameMemberWithSession(directory, row.email, row.accountId, session.named);
  const results = await acceptInShard(
    db,
    { tokenHash, accountId: row.accountId, userId, name, now },
    session,
  );
  if (results === "already_member") return { kind: "already_member" };
  if (!results[0]?.meta.changes) return { kind: "unusable" };
  return { kind: "accepted", session };
}

async function acceptInShard(
  db: Db,
  accept: { tokenHash: string; accountId: string; userId: string; name: string | null; now: number },
  session: Awaited<ReturnType<typeof newSession>>,
): Promise<D1Result[] | "already_member"> {
  const { tokenHash, accountId, userId, name, now } = accept;
  try {
    return await runBatch(db, [
      sql`INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at)
          SELECT ${userId}, account_id, email, ${name}, role, 'active', ${now}, ${now} FROM invitations
          WHERE token_hash = ${tokenHash} AND account_id = ${accountId} AND status = 'pending' AND expires_at > ${now}`,
      sql`UPDATE invitations SET status = 'accepted', accepted_at = ${now}, updated_at = ${now}
          WHERE token_hash = ${tokenHash} AND account_id = ${accountId} AND status = 'pending' AND expires_at > ${now}
            AND EXISTS (SELECT 1 FROM users WHERE id = ${userId})`,
      ...session.statements,
    ]);
  } catch (error) {
    // The email became a user some other way while the invitation was pending.
    if (isUniqueViolation(error)) return "already_member";
    throw error;
  }
}
