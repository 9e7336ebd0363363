import type { Db } from "../db/client";
import type { InboxRow } from "../features/inboxes/inboxes.repo";
import { BOUNCE_LOCAL_PART, verifyBounceToken } from "../mail/bounce-address";
import { verifyReplyToken } from "../mail/reply-token";
import { findInboxesByAddress } from "./inbound.repo";

/** Where an envelope recipient leads. */
export type Route =
  | { kind: "inbox"; inbox: InboxRow }
  /** A reply address `<local>+<token>@<domain>` whose signed token names `ticketId`. */
  | { kind: "reply"; inbox: InboxRow; ticketId: string }
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
 * Routes the envelope recipient (RCPT TO). An inbox's own address first, since an address may
 * hold a `+` of its own; then `<local>+<token>@<domain>` of an inbox, whose token must verify:
 * a guessed or altered one is refused, so nobody can post into a ticket that is not theirs; then
 * the bounce address, whose token must verify too (a forged one could mark anyone bounced).
 */
export async function routeRecipient(db: Db, secret: string, rcptTo: string): Promise<Route> {
  const address = rcptTo.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  const plus = address.lastIndexOf("+", at);
  const baseAddress = at > 0 && plus > 0 ? `${address.slice(0, plus)}${address.slice(at)}` : null;
  // Both candidates in one round trip: the address itself, and the inbox a plus-address is of.
  const found = await findInboxesByAddress(db, baseAddress ? [address, baseAddress] : [address]);
  const inbox = found.find((i) => i.emailAddress === address);
  if (inbox) return { kind: "inbox", inbox };
  if (!baseAddress) return unknown(address);
  const base = found.find((i) => i.emailAddress === baseAddress);
  if (!base && address.slice(0, plus) === BOUNCE_LOCAL_PART)
    return bounceRoute(secret, address, address.slice(plus + 1, at));
  if (!base) return unknown(address);
  const ticketId = await verifyReplyToken(secret, address.slice(plus + 1, at));
  if (!ticketId) {
    return {
      kind: "reject",
      reason: `The reply address ${address} is not valid (it was altered or never issued); write to ${base.emailAddress} instead.`,
    };
  }
  return { kind: "reply", inbox: base, ticketId };
}
