import { createDb } from "../../db/client";
import { directoryDb } from "../../db/directory/client";
import {
  type AddressClaim,
  type AddressHolder,
  CLAIM_GRACE_MS,
  claimAddress,
  releaseAddress,
  takeOverAddress,
} from "../../db/directory/inbox-addresses";
import { shardD1 } from "../../db/shards";
import { conflict } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { findInbox } from "./inboxes.repo";

/** The directory and every shard binding (a claim's holder may live in any shard). */
export type ClaimEnv = Pick<Env, "DIRECTORY">;

/** The same answer whoever holds the address: it names no workspace and no inbox. */
export const addressTaken = (address: string) =>
  conflict(
    "email_address_taken",
    "Email address already in use",
    `${address} is already the address of an inbox; addresses are unique across the service.`,
  );

/**
 * A claim nobody will complete: older than the grace a claim has to reach its shard, and its
 * inbox is gone from its shard or at another address (deleted or moved, and the claim not released).
 */
async function isStale(env: ClaimEnv, holder: AddressHolder, now: number) {
  if (now - holder.claimedAt < CLAIM_GRACE_MS) return false;
  const inbox = await findInbox(createDb(shardD1(env, holder.shard)), holder.accountId, holder.inboxId);
  return inbox?.emailAddress !== holder.address;
}

/**
 * Claims the address for the inbox in the directory, before the inbox is written at it in its
 * shard: the directory's primary key makes addresses unique across the service, so of two
 * workspaces creating one address at once exactly one gets it. A stale claim (a crash between the
 * two writes) is taken over; any other holder is a 409, the same whoever it is. One round trip
 * when the address is free.
 */
export async function claimInboxAddress(env: ClaimEnv, claim: AddressClaim, now: number): Promise<void> {
  const directory = directoryDb(env);
  const holder = await claimAddress(directory, claim, now);
  if (!holder) return;
  if ((await isStale(env, holder, now)) && (await takeOverAddress(directory, holder, claim, now))) return;
  throw addressTaken(claim.address);
}

/**
 * Releases the inbox's claim once its shard no longer holds the inbox at the address (deleted,
 * moved, or never written). The shard's change is made, so a failure here does not fail the
 * request: the claim left behind is stale and the next claimant takes it over.
 */
export async function releaseInboxAddress(env: ClaimEnv, address: string, inboxId: string) {
  try {
    await releaseAddress(directoryDb(env), address, inboxId);
  } catch (error) {
    log.warn("inbox_address.release_failed", describeError(error));
  }
}
