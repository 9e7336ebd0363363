import type { DropReason } from "../db/schema";
import { findOrCreateCustomer } from "../features/customers/customers.service";
import type { TicketContext } from "../features/tickets/ticket-context";
import { isUniqueViolation } from "../lib/unique-violation";
import { isValidAddress, parseAddress } from "../mail/address";
import { isAutomatic, loopAddresses } from "./automatic";
import { inboxAddressesAndMessageId } from "./inbound.repo";
import type { InboundMail } from "./parse";
import type { RawMail } from "./raw-mail";
import type { MailboxRoute } from "./recipient";
import { storeReceived } from "./store";
import { threadOf } from "./threading";

export type InboundContext = TicketContext & { env: Env };

/** What became of an accepted mail. */
export type Received =
  | { kind: "stored"; messageId: string; ticketId: string; opened: boolean }
  | { kind: "duplicate" }
  | { kind: "dropped"; reason: DropReason };

/**
 * What the checks before anything is stored need, read in one round trip: which of the sender,
 * envelope sender and `X-Loop` addresses are the receiving workspace's own (one of its inboxes'
 * addresses, or the service's SYSTEM_FROM), and whether the workspace already stored this
 * Message-ID. Another workspace's inbox is a customer here; loops between two workspaces are
 * stopped by the automatic-mail rules (the service's own automatic mail says it is automatic).
 */
async function screen(ctx: InboundContext, mail: InboundMail, mailFrom: string) {
  const system = parseAddress(ctx.env.SYSTEM_FROM)?.address.toLowerCase();
  const senders = [mail.from?.address ?? "", mailFrom].filter(Boolean);
  const loops = loopAddresses(mail.headers);
  const [inboxes, taken] = await inboxAddressesAndMessageId(
    ctx.db,
    ctx.accountId,
    [...senders, ...loops],
    mail.messageId,
  );
  const own = (address: string) => address === system || inboxes.includes(address);
  return { ownSender: senders.some(own), looped: loops.some(own), duplicate: taken };
}

/**
 * Turns a parsed mail to `route` into a message, or records why not. Our own mail never becomes
 * a message (its From or envelope sender is ours, or its X-Loop names us), the same mail twice is
 * stored once, a blocked customer's mail is dropped, and an automatic answer is kept only on a
 * ticket it answers: it never opens one.
 */
export async function receive(
  ctx: InboundContext,
  route: MailboxRoute,
  envelope: { mailFrom: string; messageId: string },
  raw: RawMail,
  mail: InboundMail,
): Promise<Received> {
  const mailFrom = envelope.mailFrom.trim().toLowerCase();
  const checks = await screen(ctx, mail, mailFrom);
  if (checks.ownSender) return { kind: "dropped", reason: "own_address" };
  if (checks.looped) return { kind: "dropped", reason: "loop" };
  if (checks.duplicate) return { kind: "duplicate" };

  const sender = mail.from?.address ?? (isValidAddress(mailFrom) ? mailFrom : null);
  if (!sender) return { kind: "dropped", reason: "no_sender" };
  const automatic = isAutomatic(mail.headers, envelope.mailFrom);
  const thread = await threadOf(ctx, route, mail, sender);
  if (!thread && automatic) return { kind: "dropped", reason: "auto_submitted" };

  const customer = await findOrCreateCustomer(
    ctx.db,
    ctx.accountId,
    { email: sender, name: mail.from?.name ?? null },
    ctx.now,
  );
  if (customer.blocked) return { kind: "dropped", reason: "customer_blocked" };
  try {
    const stored = await storeReceived(ctx, route.inbox, thread?.ticket ?? null, {
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
