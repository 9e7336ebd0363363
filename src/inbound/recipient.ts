import { createDb, type Db } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { type AddressHolder, holdersOf } from "../db/directory/inbox-addresses";
import { shardD1 } from "../db/shards";
import type { InboxRow } from "../features/inboxes/inboxes.repo";
import { workspaceMoving } from "../lib/workspace-moving";
import { BOUNCE_LOCAL_PART, verifyBounceToken } from "../mail/bounce-address";
import { verifyReplyToken } from "../mail/reply-token";

/**
 * The inbox the directory names for a recipient, and its workspace's shard (where the mail is
 * stored): its binding and database. Not yet confirmed by the shard: the mail's first read there
 * (`mailReads`) reads the inbox too and settles it (`confirmedInbox`), rather than a round trip of
 * its own before the mail is even read.
 */
interface Mailbox {
  /** The inbox's own address, as the directory claims it (a reply address's base). */
  address: string;
  accountId: string;
  inboxId: string;
  shard: string;
  db: Db;
}

/** Where an envelope recipient leads. */
export type Route =
  | ({ kind: "inbox" } & Mailbox)
  /** A reply address `<local>+<token>@<domain>` whose signed token names `ticketId`. */
  | ({ kind: "reply"; ticketId: string; rcptTo: string } & Mailbox)
  /**
   * The bounce address `bounces+<token>@<domain>` (VERP) whose signed token names `emailId` and,
   * unless it is an email-only token from before per-recipient envelopes, one recipient's tag.
   */
  | { kind: "bounce"; emailId: string; recipientTag: string | null }
  | { kind: "reject"; reason: string };

/** A recipient that leads to an inbox: its address or a reply address of one of its tickets. */
export type MailboxRoute = Extract<Route, { kind: "inbox" | "reply" }>;

const unknownReason = (address: string) =>
  `No mailbox ${address} here: it is not an address of this service.`;
const unknown = (address: string): Route => ({ kind: "reject", reason: unknownReason(address) });

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
 * The inbox the directory names for `address`; null when it names none. Whether the claim is
 * still the inbox's address in its shard is settled with the mail's first read there
 * (`confirmedInbox`): the shard has the last word.
 */
function mailboxAt(env: object, holders: AddressHolder[], address: string): Mailbox | null {
  const holder = holders.find((h) => h.address === address);
  if (!holder) return null;
  // Its workspace is being moved: a temporary failure, which the sending server retries.
  if (holder.frozen) throw workspaceMoving();
  const db = createDb(shardD1(env, holder.shard));
  return { address, accountId: holder.accountId, inboxId: holder.inboxId, shard: holder.shard, db };
}

/**
 * The route's inbox as its shard has it (`row`, read with the mail's other reads), or a refusal
 * when the directory's claim is not, or no longer, that inbox's address there (an address changed
 * or an inbox deleted while the directory catches up): refused as an unknown address always was.
 */
export function confirmedInbox(
  route: MailboxRoute,
  row: InboxRow | null,
): { inbox: InboxRow } | { kind: "reject"; reason: string } {
  if (row && row.id === route.inboxId && row.emailAddress === route.address) return { inbox: row };
  return { kind: "reject", reason: unknownReason(route.kind === "reply" ? route.rcptTo : route.address) };
}

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
  const mailbox = mailboxAt(env, holders, address);
  if (mailbox) return { kind: "inbox", ...mailbox };
  if (!baseAddress) return unknown(address);
  const base = mailboxAt(env, holders, baseAddress);
  if (!base && address.slice(0, plus) === BOUNCE_LOCAL_PART)
    return bounceRoute(secret, address, address.slice(plus + 1, at));
  if (!base) return unknown(address);
  const ticketId = await verifyReplyToken(secret, address.slice(plus + 1, at));
  if (!ticketId) {
    return {
      kind: "reject",
      reason: `The reply address ${address} is not valid (it was altered or never issued); write to ${base.address} instead.`,
    };
  }
  return { kind: "reply", ...base, ticketId, rcptTo: address };
}
