import type { DropReason } from "../db/schema";
import type { TicketContext } from "../features/tickets/ticket-context";
import { newId } from "../lib/ids";
import { log } from "../lib/logger";
import { insertDropped } from "./inbound.repo";
import type { RawMail } from "./raw-mail";

export interface Envelope {
  mailFrom: string;
  rcptTo: string;
  inboxId: string;
}

/**
 * Records mail that was accepted but became no message, with its bytes' R2 key (the `dropped_mail`
 * table, listed by GET /v1/inbound/dropped). The log line names no address or subject.
 */
export async function recordDropped(
  ctx: TicketContext,
  envelope: Envelope,
  raw: RawMail,
  drop: { reason: DropReason; detail?: string; messageId?: string | null },
) {
  await raw.stored;
  await insertDropped(ctx.db, {
    publicId: newId("drp"),
    accountId: ctx.accountId,
    inboxId: envelope.inboxId,
    reason: drop.reason,
    detail: drop.detail?.slice(0, 1000) ?? null,
    mailFrom: envelope.mailFrom,
    rcptTo: envelope.rcptTo,
    messageId: drop.messageId ?? null,
    rawKey: raw.key,
    rawSize: raw.bytes.length,
    createdAt: ctx.now,
  });
  const level = drop.reason === "parse_failed" ? "error" : "info";
  log[level]("inbound.dropped", { reason: drop.reason, inbox_id: envelope.inboxId, raw_key: raw.key });
}
