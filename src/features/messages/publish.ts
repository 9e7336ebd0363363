import { runBatch, type Statement } from "../../db/client";
import { messageAttachments, messages } from "../../db/schema";
import { announceEvents } from "../../webhooks/announce";
import { type RecordedEvent, recordEvent } from "../../webhooks/outbox";
import { ticketData } from "../../webhooks/payloads";
import { reassignOnReopen } from "../assignment/ticket-assignment";
import type { CustomerRow } from "../customers/customers.repo";
import { commitEmails } from "../emails/emails.accept";
import type { EmailRow } from "../emails/emails.repo";
import { enqueueEmails } from "../emails/enqueue";
import { messageIdOf } from "../emails/message-id";
import type { InboxRow } from "../inboxes/inboxes.repo";
import { slaMessage, slaStatements } from "../sla/ticket-sla";
import { afterTicketResolved, movedToResolved } from "../tickets/after-resolve";
import type { TicketContext } from "../tickets/ticket-context";
import { asTicketChanged, runGuarded, type VersionGuard } from "../tickets/ticket-version";
import type { TicketRow } from "../tickets/tickets.repo";
import { countStorageStatements } from "../usage/usage.repo";
import { reserveStorage } from "../usage/usage.service";
import { type DecodedFile, filesBytes, putFiles, removeFiles } from "./message-files";
import { toMessage } from "./messages.dto";
import type { AttachmentRow, MessageRow } from "./messages.repo";
import { prepareReply, replySubject } from "./reply-email";
import { bumpTicketStatement, ticketAfterMessage } from "./ticket-activity";

export interface Publication {
  ticket: TicketRow;
  inbox: InboxRow;
  customer: CustomerRow;
  /** The message as it will read once published (its email fields are filled in here). */
  message: MessageRow;
  /** Files this publication adds (a new message's); their rows join the batch. */
  newFiles: DecodedFile[];
  /** Every file of the message: what its email carries and its event lists. */
  files: AttachmentRow[];
  afterReply: TicketRow["status"];
  /** The statements that write the message itself: an insert, or a draft's conditional update. */
  write: (published: MessageRow) => Statement[];
  /** `false`: everything but `message.created` (the dashboard's internal notes); true when absent. */
  announce?: boolean;
  /**
   * The new ticket this message opens (an inbound email's): its insert and `ticket.created` go
   * first in the same batch, and the event is announced before `message.created`.
   */
  opening?: { statements: Statement[]; event: RecordedEvent };
  /**
   * `reserve` (the default) refuses bytes past the storage quota with a 429; `count` adds them
   * whatever the quota, for mail already received that must not be lost.
   */
  storage?: "reserve" | "count";
  /** Statements that store the answer (the published message) in the same batch: an idempotent create's. */
  alsoStore?: (message: PublishedMessage) => Statement[];
  /**
   * More changes of the ticket for the same batch (a saved reply's actions), made from the ticket
   * as this message leaves it: their statements follow the message's, their events follow
   * `message.created`, and the ticket they leave is the one a move to `resolved` is judged on.
   */
  alsoChange?: (ticketAfter: TicketRow) => Promise<TicketChange>;
  /** If-Match: the batch commits only while the ticket is at the version it names. */
  guard?: VersionGuard;
}

export interface TicketChange {
  ticket: TicketRow;
  statements: Statement[];
  events: RecordedEvent[];
}

export type PublishedMessage = ReturnType<typeof toMessage>;

/**
 * Publishes a message: a reply's email passes every check of POST /v1/emails and holds its quota
 * first, so a refused send leaves nothing behind; then the email, the message, its files, the
 * ticket's change, `message.created` and `alsoChange`'s statements commit in one batch. Only after
 * that is the email queued and the events announced: nothing leaves for a message not stored.
 */
export async function publishMessage(ctx: TicketContext, p: Publication): Promise<PublishedMessage> {
  const { ticket, inbox, customer, message } = p;
  const bytes = filesBytes(p.newFiles) + message.rawSize;
  const email =
    message.type === "reply"
      ? await prepareReply(
          ctx,
          ticket,
          inbox,
          customer,
          {
            bodyText: message.bodyText,
            bodyHtml: message.bodyHtml,
            cc: JSON.parse(message.cc) as string[],
            attachments: p.files,
            subject: message.subject ?? replySubject(ticket.subject),
          },
          bytes,
        )
      : null;
  const counted = !email && p.storage === "count";
  const storage = email || counted ? null : await reserveStorage(ctx.db, ctx.accountId, bytes, ctx.now);

  const published = {
    ...message,
    emailId: email?.row.id ?? null,
    // A reply's is its email's; an inbound message keeps the Message-ID it came with.
    emailMessageId: email
      ? messageIdOf({ ...email.row, messageId: email.row.messageId ?? null })
      : message.emailMessageId,
  };
  // An automatic answer (an out-of-office to a reply) is kept but changes no status, as a note.
  const activity = message.autoSubmitted ? "note" : message.type;
  const ticketAfter = ticketAfterMessage(ticket, activity, p.afterReply, ctx.now);
  const shown = toMessage({ message: published, emailStatus: email ? "queued" : null }, p.files);
  const event =
    p.announce === false
      ? null
      : recordEvent(
          {
            accountId: ctx.accountId,
            inbox,
            name: "message.created",
            data: { ticket: ticketData(ticketAfter, ctx.env.PUBLIC_BASE_URL), message: shown },
          },
          ctx.now,
        );
  const reassign =
    activity === "customer" && !p.opening ? reassignOnReopen(ctx, inbox, customer, ticketAfter) : null;
  const also = await p.alsoChange?.(ticketAfter).catch(async (error: unknown) => {
    await email?.abort();
    await storage?.release();
    throw error;
  });
  const sla = await slaStatements(ctx, ticket, also?.ticket ?? ticketAfter, slaMessage(activity), inbox);
  const statements = [
    ...(p.guard?.first() ?? []),
    ...(p.opening?.statements ?? []),
    ...(counted ? countStorageStatements(ctx.accountId, bytes) : []),
    ...p.write(published),
    ...p.newFiles.map((f) => ctx.db.insert(messageAttachments).values(f.row)),
    ...(reassign?.statements ?? []),
    bumpTicketStatement(ctx.accountId, ticket.id, activity, p.afterReply, ctx.now),
    ...(event?.statements ?? []),
    ...(also?.statements ?? []),
    // Last: it judges the message and the status the batch leaves (a saved reply's included).
    ...sla,
    ...(p.alsoStore?.(shown) ?? []),
    ...(p.guard ? [p.guard.last()] : []),
  ];
  try {
    await putFiles(ctx, p.newFiles);
    const results = email
      ? await commitEmails(ctx.db, email, statements)
      : await runBatch(ctx.db, statements);
    p.guard?.readFrom(results);
  } catch (error) {
    await storage?.release();
    await removeFiles(ctx, p.newFiles);
    throw asTicketChanged(error);
  }
  if (email) await enqueueEmails(ctx.env.EMAIL_QUEUE, [email.row as EmailRow], ctx.now);
  await announceEvents(
    ctx.env.WEBHOOK_QUEUE,
    [p.opening?.event, reassign?.event, event, ...(also?.events ?? [])],
    ctx.defer,
  );
  const ticketLeft = also?.ticket ?? ticketAfter;
  if (!p.opening && movedToResolved(ticket.status, ticketLeft.status))
    await afterTicketResolved(ctx, ticketLeft);
  return shown;
}

/** A draft's files and row, stored without publishing: no email, no ticket change, no event. */
export async function saveDraft(
  ctx: TicketContext,
  message: MessageRow,
  files: DecodedFile[],
  alsoStore: Publication["alsoStore"] = () => [],
  guard?: VersionGuard,
): Promise<PublishedMessage> {
  const shown = toMessage(
    { message, emailStatus: null },
    files.map((f) => f.row),
  );
  const storage = await reserveStorage(ctx.db, ctx.accountId, filesBytes(files), ctx.now);
  try {
    await putFiles(ctx, files);
    await runGuarded(
      ctx,
      [
        ctx.db.insert(messages).values(message),
        ...files.map((f) => ctx.db.insert(messageAttachments).values(f.row)),
        ...alsoStore(shown),
      ],
      guard,
    );
  } catch (error) {
    await storage.release();
    await removeFiles(ctx, files);
    throw error;
  }
  return shown;
}
