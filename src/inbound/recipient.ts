import type { Db } from "../db/client";
import type { InboxRow } from "../features/inboxes/inboxes.repo";
import { verifyReplyToken } from "../mail/reply-token";
import { findInboxByAddress } from "./inbound.repo";

/**
 * Where an envelope recipient leads. The bounce address `bounces+<token>@<domain>` (VERP) is not
 * handled yet: until it is, it is refused like any unknown address; it becomes one more kind here.
 */
export type Route =
  | { kind: "inbox"; inbox: InboxRow }
  /** A reply address `<local>+<token>@<domain>` whose signed token names `ticketId`. */
  | { kind: "reply"; inbox: InboxRow; ticketId: string }
  | { kind: "reject"; reason: string };

const unknown = (address: string): Route => ({
  kind: "reject",
  reason: `No mailbox ${address} here: it is not an address of this service.`,
});

/**
 * Routes the envelope recipient (RCPT TO). An inbox's own address first, since an address may
 * hold a `+` of its own; then `<local>+<token>@<domain>` of an inbox, whose token must verify:
 * a guessed or altered one is refused, so nobody can post into a ticket that is not theirs.
 */
export async function routeRecipient(db: Db, secret: string, rcptTo: string): Promise<Route> {
  const address = rcptTo.trim().toLowerCase();
  const inbox = await findInboxByAddress(db, address);
  if (inbox) return { kind: "inbox", inbox };
  const at = address.lastIndexOf("@");
  const plus = address.lastIndexOf("+", at);
  if (at <= 0 || plus <= 0) return unknown(address);
  const base = await findInboxByAddress(db, `${address.slice(0, plus)}${address.slice(at)}`);
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
