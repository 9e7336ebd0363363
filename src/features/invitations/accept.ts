import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { sha256Hex } from "../../lib/crypto";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { findAccount } from "../accounts/accounts.repo";
import { newSession } from "../sessions/session";
import { invitationStatus } from "./invitations.dto";
import { findInvitationByTokenHash } from "./invitations.repo";

/** What the invitation page shows for a token: the invitation while it can be accepted. */
export async function invitationForToken(db: Db, token: string, now: number) {
  const row = await findInvitationByTokenHash(db, await sha256Hex(token));
  if (!row || invitationStatus(row, now) !== "pending") return null;
  const account = await findAccount(db, row.accountId);
  return { email: row.email, role: row.role, workspace: account?.name ?? "a workspace" };
}

export type AcceptOutcome =
  | { kind: "accepted"; session: { token: string; expiresAt: number } }
  | { kind: "unusable" }
  | { kind: "already_member" };

/**
 * Accepts an invitation in one batch: the user is created from the invitation only while it is
 * pending and unexpired, the invitation is marked accepted only if that user now exists, and the
 * new user is signed in. Two concurrent accepts cannot both succeed (the second finds it accepted).
 * The seat was held by the invitation, so no limit check is needed.
 */
export async function acceptInvitation(
  db: Db,
  token: string,
  name: string | null,
  now: number,
): Promise<AcceptOutcome> {
  const tokenHash = await sha256Hex(token);
  const userId = newId("usr");
  const session = await newSession(userId, now);
  let results: D1Result[];
  try {
    results = await runBatch(db, [
      sql`INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at)
          SELECT ${userId}, account_id, email, ${name}, role, 'active', ${now}, ${now} FROM invitations
          WHERE token_hash = ${tokenHash} AND status = 'pending' AND expires_at > ${now}`,
      sql`UPDATE invitations SET status = 'accepted', accepted_at = ${now}, updated_at = ${now}
          WHERE token_hash = ${tokenHash} AND status = 'pending' AND expires_at > ${now}
            AND EXISTS (SELECT 1 FROM users WHERE id = ${userId})`,
      ...session.statements,
    ]);
  } catch (error) {
    // The email became a user some other way while the invitation was pending.
    if (isUniqueViolation(error)) return { kind: "already_member" };
    throw error;
  }
  if (!results[0]?.meta.changes) return { kind: "unusable" };
  return { kind: "accepted", session };
}
