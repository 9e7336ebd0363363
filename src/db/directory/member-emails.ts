import { and, eq } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { memberEmails } from "./schema";
import { type NamedToken, tokenHashInsert } from "./token-hashes";

/**
 * How many workspaces one address is looked up in (POST /login sends a link for each): a person in
 * more has links for the first ones only, as before the directory.
 */
export const MEMBER_WORKSPACES_LIMIT = 20;

/** The statement naming a member's email in a workspace, for a batch with other directory writes. */
export const memberEmailInsert = (directory: DirectoryDb, email: string, accountId: string) =>
  directory.insert(memberEmails).values({ email: email.toLowerCase(), accountId }).onConflictDoNothing();

/**
 * Names a person's (lowercase) email in a workspace, before the user is written in its shard: a
 * crash between the two leaves a name whose user does not exist, which POST /login finds no one by.
 */
export async function nameMemberEmail(directory: DirectoryDb, email: string, accountId: string) {
  await memberEmailInsert(directory, email, accountId);
}

/** The workspaces an email is named in (at most MEMBER_WORKSPACES_LIMIT), read by the primary key. */
export async function workspacesOfMemberEmail(directory: DirectoryDb, email: string): Promise<string[]> {
  const rows = await directory
    .select({ accountId: memberEmails.accountId })
    .from(memberEmails)
    .where(eq(memberEmails.email, email.toLowerCase()))
    .limit(MEMBER_WORKSPACES_LIMIT);
  return rows.map((row) => row.accountId);
}

/** Forgets a member's email in a workspace, once the user is gone from its shard. */
export async function forgetMemberEmail(directory: DirectoryDb, email: string, accountId: string) {
  await directory
    .delete(memberEmails)
    .where(and(eq(memberEmails.email, email.toLowerCase()), eq(memberEmails.accountId, accountId)));
}

/**
 * Names a new member and their first session together, in one round trip: an invitation accepted
 * creates the user and signs them in at once.
 */
export async function nameMemberWithSession(
  directory: DirectoryDb,
  email: string,
  accountId: string,
  session: NamedToken,
) {
  await directory.batch([
    memberEmailInsert(directory, email, accountId),
    tokenHashInsert(directory, "session", [session]),
  ]);
}
