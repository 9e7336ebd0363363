import type { DropReason } from "../db/schema";
import { newCustomerRow } from "../features/customers/customers.service";
import type { TicketContext } from "../features/tickets/ticket-context";
import { isUniqueViolation } from "../lib/unique-violation";
import { isValidAddress, parseAddress } from "../mail/address";
import { isAutomatic, loopAddresses } from "./automatic";
import { customerAndNumber, mailReads } from "./inbound.repo";
import type { InboundMail } from "./parse";
import type { RawMail } from "./raw-mail";
import { confirmedInbox, type MailboxRoute } from "./recipient";
import { storeReceived } from "./store";
import { threadOf } from "./threading";

export type InboundContext = TicketContext & { env: Env };

/** What became of an accepted mail. */
export type Received =
  | { kind: "stored"; messageId: string; ticketId: string; opened: boolean }
  | { kind: "duplicate" }
  | { kind: "dropped"; reason: DropReason }
  /** The directory's claim is not the inbox's address in its shard: refused as unknown (`confirmedInbox`). */
  | { kind: "unrouted"; reason: string };

/**
 * Everything the checks and threading need, read in one round trip (`mailReads`): which of the
 * sender, envelope sender and `X-Loop` addresses are the receiving workspace's own (one of its
 * inboxes' addresses, or the service's SYSTEM_FROM), whether the workspace already stored this
 * Message-ID, the tickets the mail may continue and the sender's customer row. Another
 * workspace's inbox is a customer here; loops between two workspaces are stopped by the
 * automatic-mail rules (the service's own automatic mail says it is automatic).
 */
async function screen(
  ctx: InboundContext,
  route: MailboxRoute,
  mail: InboundMail,
  mailFrom: string,
  sender: string | null,
) {
  const system = parseAddress(ctx.env.SYSTEM_FROM)?.address.toLowerCase();
  const senders = [mail.from?.address ?? "", mailFrom].filter(Boolean);
  const loops = loopAddresses(mail.headers);
  const found = await mailReads(ctx.db, ctx.accountId, {
    inboxId: route.inboxId,
    addresses: [...senders, ...loops],
    messageId: mail.messageId,
    parentIds: mail.parentIds,
    signedTicketId: route.kind === "reply" ? route.ticketId : null,
    sender,
  });
  const own = (address: string) => address === system || found.inboxAddresses.includes(address);
  return { ...found, ownSender: senders.some(own), looped: loops.some(own) };
}

/**
 * Turns a parsed mail to `route` into a message, or records why not. Our own mail never becomes
 * a message (its From or envelope sender is ours, or its X-Loop names us), the same mail twice is
 * stored once, a blocked customer's mail is dropped, and an automatic answer is kept only on a
 * ticket it answers: it never opens one. A known sender replying costs one round trip of reads
 * and the commit; a new sender or a new ticket one more, for the customer and the number together.
 */
export async function receive(
  ctx: InboundContext,
  route: MailboxRoute,
  envelope: { mailFrom: string; messageId: string },
  raw: RawMail,
  mail: InboundMail,
): Promise<Received> {
  const mailFrom = envelope.mailFrom.trim().toLowerCase();
  const sender = mail.from?.address ?? (isValidAddress(mailFrom) ? mailFrom : null);
  const checks = await screen(ctx, route, mail, mailFrom, sender);
  const confirmed = confirmedInbox(route, checks.inbox);
  if ("reason" in confirmed) return { kind: "unrouted", reason: confirmed.reason };
  if (checks.ownSender) return { kind: "dropped", reason: "own_address" };
  if (checks.looped) return { kind: "dropped", reason: "loop" };
  if (checks.duplicate) return { kind: "duplicate" };

  if (!sender) return { kind: "dropped", reason: "no_sender" };
  const automatic = isAutomatic(mail.headers, envelope.mailFrom);
  const thread = await threadOf(ctx, route, mail, sender, checks);
  if (!thread && automatic) return { kind: "dropped", reason: "auto_submitted" };
  if (checks.customer?.blocked) return { kind: "dropped", reason: "customer_blocked" };

  const newCustomer = checks.customer
    ? null
    : newCustomerRow(ctx.accountId, { email: sender, name: mail.from?.name ?? null }, ctx.now);
  const written = await customerAndNumber(ctx.db, ctx.accountId, newCustomer, !thread);
  const customer = checks.customer ?? written.customer;
  // Only a conflict on another unique key (a customer id taken twice) gets here: ids never repeat.
  if (!customer) throw new Error(`Customer ${sender} could not be found or created`);
  // Blocked between the read and the upsert: the number it took stays unused, as numbers may.
  if (customer.blocked) return { kind: "dropped", reason: "customer_blocked" };
  const place = thread ? { ticket: thread.ticket } : { sequence: written.sequence };
  try {
    const stored = await storeReceived(ctx, confirmed.inbox, place, {
      messageId: envelope.messageId,
      mail,
      raw,
      customer,
      automatic,
    });
    return { kind: "stored", messageId: envelope.messageId, ...stored };
  } catch (error) {
    // The same mail delivered twice at once (to two inbox addresses of one workspace): one stored it.
    if (isUniqueViolation(error, "messages.account_id")) return { kind: "duplicate" };
    throw error;
  }
}
