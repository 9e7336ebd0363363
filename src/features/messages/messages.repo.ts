import { and, asc, count, eq, gt, inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emails, messageAttachments, messages, tickets } from "../../db/schema";

export type MessageRow = typeof messages.$inferSelect;
export type AttachmentRow = typeof messageAttachments.$inferSelect;

type EmailStatus = (typeof emails.$inferSelect)["status"];

/**
 * A message with the status of the email that carries it (a reply's delivery). The email's status
 * has a name of its own: in a D1 batch rows come back keyed by column name, and a second `status`
 * would overwrite the message's (every customer message listed with status null).
 */
export const messageView = {
  message: messages,
  emailStatus: sql<EmailStatus | null>`${emails.status}`.as("email_status"),
};
export type MessageView = { message: MessageRow; emailStatus: EmailStatus | null };

export async function findMessage(db: Db, accountId: string, id: string): Promise<MessageView | null> {
  const rows = await db
    .select(messageView)
    .from(messages)
    .leftJoin(emails, eq(emails.id, messages.emailId))
    .where(and(eq(messages.accountId, accountId), eq(messages.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

export function messageQueries(
  db: Db,
  accountId: string,
  ticketId: string,
  createdAfter: number | undefined,
  limit: number,
  offset: number,
) {
  const where = and(
    eq(messages.accountId, accountId),
    eq(messages.ticketId, ticketId),
    createdAfter !== undefined ? gt(messages.createdAt, createdAfter) : undefined,
  );
  return {
    page: db
      .select(messageView)
      .from(messages)
      .leftJoin(emails, eq(emails.id, messages.emailId))
      .where(where)
      .orderBy(asc(messages.createdAt), asc(messages.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(messages).where(where),
  };
}

export function attachmentsOf(db: Db, accountId: string, messageIds: string[]) {
  return db
    .select()
    .from(messageAttachments)
    .where(
      and(
        eq(messageAttachments.accountId, accountId),
        inArray(messageAttachments.messageId, messageIds.length > 0 ? messageIds : [""]),
      ),
    )
    .orderBy(asc(messageAttachments.createdAt), asc(messageAttachments.id));
}

/** The RFC 5322 Message-IDs of a ticket's messages so far, oldest first (for References). */
export async function threadMessageIds(db: Db, accountId: string, ticketId: string): Promise<string[]> {
  const rows = await db
    .select({ id: messages.emailMessageId })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        eq(messages.ticketId, ticketId),
        isNotNull(messages.emailMessageId),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.flatMap((r) => (r.id ? [r.id] : []));
}

/**
 * R2 keys of every attachment and received email (raw MIME) under one ticket or a whole inbox, to
 * delete the bytes after the rows.
 */
export async function attachmentKeysUnder(
  db: Db,
  accountId: string,
  scope: { ticketId: string } | { inboxId: string },
): Promise<string[]> {
  const ticketIds = db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.accountId, accountId),
        "ticketId" in scope ? eq(tickets.id, scope.ticketId) : eq(tickets.inboxId, scope.inboxId),
      ),
    );
  const [files, raws] = await db.batch([
    db
      .select({ key: messageAttachments.key })
      .from(messageAttachments)
      .innerJoin(messages, eq(messages.id, messageAttachments.messageId))
      .where(and(eq(messageAttachments.accountId, accountId), inArray(messages.ticketId, ticketIds))),
    db
      .select({ key: messages.rawKey })
      .from(messages)
      .where(
        and(
          eq(messages.accountId, accountId),
          inArray(messages.ticketId, ticketIds),
          isNotNull(messages.rawKey),
        ),
      ),
  ]);
  return [...files.map((r) => r.key), ...raws.flatMap((r) => (r.key ? [r.key] : []))];
}

/** Deletes R2 objects in the chunks of 1,000 that R2 accepts. */
export async function deleteFiles(files: R2Bucket, keys: string[]) {
  for (let i = 0; i < keys.length; i += 1000) await files.delete(keys.slice(i, i + 1000));
}

/** The stored text of these messages' HTML bodies (`html_text`), for pages that show it. */
export async function htmlTextsOf(
  db: Db,
  accountId: string,
  ids: string[],
): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: messages.id, htmlText: messages.htmlText })
    .from(messages)
    .where(
      and(
        eq(messages.accountId, accountId),
        sql`${messages.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
      ),
    );
  return new Map(rows.map((r) => [r.id, r.htmlText]));
}
