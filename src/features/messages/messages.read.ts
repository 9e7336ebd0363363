import { and, eq } from "drizzle-orm";
import { messageAttachments } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { namedCountedList, type OffsetParams, standardList } from "../../lib/pagination";
import { mediaTypeProblem } from "../../mail/mime/checks";
import type { TicketContext } from "../tickets/ticket-context";
import { ticketOf } from "../tickets/tickets.service";
import { toAttachment, toMessage } from "./messages.dto";
import { attachmentsOf, findMessage, messageQueries } from "./messages.repo";

/** A ticket's messages, oldest first, with `created_after` for incremental sync. */
export async function listMessages(
  ctx: TicketContext,
  ticketId: string,
  createdAfter: number | undefined,
  page: OffsetParams,
) {
  await ticketOf(ctx, ticketId);
  const { page: query, total } = messageQueries(
    ctx.db,
    ctx.accountId,
    ticketId,
    createdAfter,
    page.limit,
    page.offset,
  );
  const [rows, totals] = await ctx.db.batch([query, total]);
  const files = await attachmentsOf(
    ctx.db,
    ctx.accountId,
    rows.map((r) => r.message.id),
  );
  return standardList(
    rows.map((view) => toMessage(view, files)),
    totals[0]?.total ?? 0,
    page,
  );
}

export async function listAttachments(ctx: TicketContext, messageId: string) {
  if (!(await findMessage(ctx.db, ctx.accountId, messageId))) throw notFound(`Message ${messageId}`);
  return namedCountedList(
    "attachments",
    (await attachmentsOf(ctx.db, ctx.accountId, [messageId])).map(toAttachment),
  );
}

/**
 * The attachment's bytes from R2, with its type and a download name. A row stored before types
 * were checked may hold one with a line break, which no response header can carry.
 */
export async function attachmentContent(ctx: TicketContext, messageId: string, attachmentId: string) {
  const rows = await ctx.db
    .select()
    .from(messageAttachments)
    .where(
      and(
        eq(messageAttachments.accountId, ctx.accountId),
        eq(messageAttachments.messageId, messageId),
        eq(messageAttachments.id, attachmentId),
      ),
    )
    .limit(1);
  const row = rows[0];
  const object = row ? await ctx.env.FILES.get(row.key) : null;
  if (!row || !object) throw notFound(`Attachment ${attachmentId}`);
  return {
    body: object.body,
    contentType: mediaTypeProblem(row.contentType) ? "application/octet-stream" : row.contentType,
    filename: row.filename,
    size: row.size,
  };
}

/** The MIME an inbound message was received as (GET /v1/messages/{id}/raw). */
export async function messageRaw(ctx: TicketContext, messageId: string) {
  const view = await findMessage(ctx.db, ctx.accountId, messageId);
  if (!view) throw notFound(`Message ${messageId}`);
  const object = view.message.rawKey ? await ctx.env.FILES.get(view.message.rawKey) : null;
  if (!object)
    throw new AppError(
      404,
      "raw_not_found",
      "No received email",
      `Message ${messageId} did not come by email.`,
    );
  return { body: object.body, size: object.size };
}
