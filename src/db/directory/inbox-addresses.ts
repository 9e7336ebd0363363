import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { inboxAddresses, workspaceMoves, workspaces } from "./schema";
import { LEGACY_SHARD } from "./workspaces";

/** An inbox an address is claimed for, and the shard of its workspace. */
export interface AddressHolder {
  address: string;
  accountId: string;
  inboxId: string;
  shard: string;
  claimedAt: number;
  /** Its workspace is being moved (features/workspace-moves): its mail waits. */
  frozen: boolean;
}

/** Who claims an address: an inbox of a workspace. */
export interface AddressClaim {
  address: string;
  accountId: string;
  inboxId: string;
}

/**
 * How long a claim is trusted without its record. A claim is written just before its inbox is
 * written (or moved to the address) in its shard; one younger than this may still be on its way
 * there, so it is never taken over. Only a claim whose record was never written (a crash between
 * the two writes), or was deleted or moved without the claim being released, gets older than
 * this without its record.
 */
export const CLAIM_GRACE_MS = 60_000;

const holderColumns = {
  address: inboxAddresses.address,
  accountId: inboxAddresses.accountId,
  inboxId: inboxAddresses.inboxId,
  shard: workspaces.shard,
  claimedAt: inboxAddresses.claimedAt,
  // Named apart: a batch answers rows by column name, and account_id is taken.
  moving: sql<number>`${workspaceMoves.frozenUntil} IS NOT NULL`.mapWith(Number).as("moving"),
};

const withShard = ({
  moving,
  ...row
}: Omit<AddressHolder, "shard" | "frozen"> & { shard: string | null; moving: number }): AddressHolder => ({
  ...row,
  shard: row.shard ?? LEGACY_SHARD,
  frozen: Boolean(moving),
});

/** The claims of these addresses with their workspaces' shards (exposed so tests can check its plan). */
export const holdersQuery = (directory: DirectoryDb, addresses: string[], now = Date.now()) =>
  directory
    .select(holderColumns)
    .from(inboxAddresses)
    .leftJoin(workspaces, eq(workspaces.accountId, inboxAddresses.accountId))
    .leftJoin(
      workspaceMoves,
      and(eq(workspaceMoves.accountId, inboxAddresses.accountId), gt(workspaceMoves.frozenUntil, now)),
    )
    .where(inArray(inboxAddresses.address, addresses))
    .limit(addresses.length);

/**
 * Claims `address` for an inbox, before the inbox is written at it in its shard. Answers null when
 * the claim is the inbox's (new, or made before by the same inbox), else who holds the address,
 * both in one round trip: the caller decides whether that claim is stale (`takeOverAddress`).
 */
export async function claimAddress(
  directory: DirectoryDb,
  claim: AddressClaim,
  now: number,
): Promise<AddressHolder | null> {
  const [inserted, held] = await directory.batch([
    directory
      .insert(inboxAddresses)
      .values({ ...claim, claimedAt: now })
      .onConflictDoNothing()
      .returning({ address: inboxAddresses.address }),
    holdersQuery(directory, [claim.address]),
  ]);
  if (inserted.length === 1) return null;
  // One transaction: the insert found a row, so the read finds it too.
  const holder = held[0];
  if (!holder) throw new Error("An address claim conflicted with no row");
  if (holder.accountId === claim.accountId && holder.inboxId === claim.inboxId) return null;
  return withShard(holder);
}

/**
 * Takes a stale claim over for `claim`, only if `stale` still holds it as it was read (a
 * conditional update on the old owner): of two takers, one wins. Answers whether this one did.
 */
export async function takeOverAddress(
  directory: DirectoryDb,
  stale: AddressHolder,
  claim: AddressClaim,
  now: number,
): Promise<boolean> {
  const rows = await directory
    .update(inboxAddresses)
    .set({ accountId: claim.accountId, inboxId: claim.inboxId, claimedAt: now })
    .where(
      and(
        eq(inboxAddresses.address, stale.address),
        eq(inboxAddresses.accountId, stale.accountId),
        eq(inboxAddresses.inboxId, stale.inboxId),
        eq(inboxAddresses.claimedAt, stale.claimedAt),
      ),
    )
    .returning({ address: inboxAddresses.address });
  return rows.length === 1;
}

/** Releases the inbox's claim of `address`; a claim someone else has taken over meanwhile stays theirs. */
export async function releaseAddress(directory: DirectoryDb, address: string, inboxId: string) {
  await directory
    .delete(inboxAddresses)
    .where(and(eq(inboxAddresses.address, address), eq(inboxAddresses.inboxId, inboxId)));
}

/**
 * The inboxes these addresses are claimed for, with their workspaces' shards, in one read (inbound
 * mail: an address and the inbox a plus-address is of). A claim is not the inbox: the caller reads
 * it in its shard, which has the last word.
 */
export async function holdersOf(directory: DirectoryDb, addresses: string[]): Promise<AddressHolder[]> {
  if (addresses.length === 0) return [];
  return (await holdersQuery(directory, addresses)).map(withShard);
}

/** By the index on inbox id (exposed so tests can check its plan). */
export const inboxWorkspaceQuery = (directory: DirectoryDb, inboxId: string) =>
  directory
    .select({ accountId: inboxAddresses.accountId })
    .from(inboxAddresses)
    .where(eq(inboxAddresses.inboxId, inboxId))
    .limit(1);

/** The workspace an inbox's address names (the public contact form knows only the inbox); null when none does. */
export async function workspaceOfInbox(directory: DirectoryDb, inboxId: string): Promise<string | null> {
  return (await inboxWorkspaceQuery(directory, inboxId))[0]?.accountId ?? null;
}
