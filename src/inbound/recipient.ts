import { createDb, type Db } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { type AddressHolder, holdersOf } from "../db/directory/inbox-addresses";
import { shardD1 } from "../db/shards";
import { findInbox, type InboxRow } from "../features/inboxes/inboxes.repo";
import { workspaceMoving } from "../lib/workspace-moving";
import { BOUNCE_LOCAL_PART, verifyBounceToken } from "../mail/bounce-address";
import { verifyReplyToken } from "../mail/reply-token";

/** An inbox a recipient leads to, and its workspace's shard (where the mail is stored): its binding and database. */
interface Mailbox {
  inbox: InboxRow;
  shard: string;
  db: Db;
}

/** Where an envelope recipient leads. */
export type Route =
  | ({ kind: "inbox" } & Mailbox)
  /** A reply address `<local>+<token>@<domain>` whose signed token names `ticketId`. */
  | ({ kind: "reply"; ticketId: string } & Mailbox)
  /**
   * The bounce address `bounces+<token>@<domain>` (VERP) whose signed token names `emailId` and,
   * unless it is an email-only token from before per-recipient envelopes, one recipient's tag.
   */
  | { kind: "bounce"; emailId: string; recipientTag: string | null }
  | { kind: "reject"; reason: string };

/** A recipient that leads to an inbox: its address or a reply address of one of its tickets. */
export type MailboxRoute = Extract<Route, { kind: "inbox" | "reply" }>;

const unknown = (address: string): Route => ({
  kind: "reject",
  reason: `No mailbox ${address} here: it is not an address of this service.`,
});

/** `bounces+<token>@<domain>`: the Return-Path of one of our emails, if its token verifies. */
async function bounceRoute(secret: string, address: string, token: string): Promise<Route> {
  const named = await verifyBounceToken(secret, token);
  if (named) return { kind: "bounce", ...named };
  return {
    kind: "reject",
    reason: `The bounce address ${address} is not valid (it was altered or never issued by this service).`,
  };
}

/**
 * The inbox the directory names for `address`, read in its workspace's shard scoped by that
 * workspace; null when the directory names none, or its claim is not (or no longer) the inbox's
 * address there: the shard has the last word.
 */
async function mailboxAt(env: object, holders: AddressHolder[], address: string): Promise<Mailbox | null> {
  const holder = holders.find((h) => h.address === address);
  if (!holder) return null;
  // Its workspace is being moved: a temporary failure, which the sending server retries.
  if (holder.frozen) throw workspaceMoving();
  const db = createDb(shardD1(env, holder.shard));
  const inbox = await findInbox(db, holder.accountId, holder.inboxId);
  return inbox?.emailAddress === address ? { inbox, shard: holder.shard, db } : null;
}

/**
 * Routes the envelope recipient (RCPT TO). An inbox's own address first, since an address may
 * hold a `+` of its own; then `<local>+<token>@<domain>` of an inbox, whose token must verify:
 * a guessed or altered one is refused, so nobody can post into a ticket that is not theirs; then
 * the bounce address, whose token must verify too (a forged one could mark anyone bounced).
 * Inboxes are found through the directory (both candidates in one round trip), then read in their
 * workspace's shard (one more).
 */
export async function routeRecipient(
  env: Pick<Env, "DIRECTORY">,
  secret: string,
  rcptTo: string,
): Promise<Route> {
  const address = rcptTo.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const plus = address.lastIndexOf("+", at);
  const baseAddress = at > 0 && plus > 0 ? `${address.slice(0, plus)}${address.slice(at)}` : null;
  const holders = await holdersOf(directoryDb(env), baseAddress ? [address, baseAddress] : [address]);
  const mailbox = await mailboxAt(env, holders, address);
  if (mailbox) return { kind: "inbox", ...mailbox };
  if (!baseAddress) return unknown(address);
  const base = await mailboxAt(env, holders, baseAddress);
  if (!base && address.slice(0, plus) === BOUNCE_LOCAL_PART)
    return bounceRoute(secret, address, address.slice(plus + 1, at));
  if (!base) return unknown(address);
  const ticketId = await verifyReplyToken(secret, address.slice(plus + 1, at));
  if (!ticketId) {
    return {
      kind: "reject",
      reason: `The reply address ${address} is not valid (it was altered or never issued); write to ${base.inbox.emailAddress} instead.`,
    };
  }
  return { kind: "reply", ...base, ticketId };
}
