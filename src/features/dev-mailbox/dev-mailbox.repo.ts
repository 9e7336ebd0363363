import { desc, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emails } from "../../db/schema";
import { messageKey } from "../emails/message-key";

/** How many of the newest messages the mailbox shows. */
export const MAILBOX_SIZE = 50;

export interface MailboxMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  created_at: string;
  raw: string;
}

/**
 * The newest messages handed to the transport, in every workspace (a development tool: the local
 * database is the developer's own), with the MIME the pipeline kept in R2. Development only, so
 * the scan of `emails` by `sent_at` needs no index of its own.
 */
export async function newestMessages(db: Db, files: R2Bucket): Promise<MailboxMessage[]> {
  const rows = await db
    .select({
      id: emails.id,
      from: emails.from,
      to: emails.to,
      subject: emails.subject,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .where(isNotNull(emails.sentAt))
    .orderBy(desc(emails.createdAt), desc(emails.id))
    .limit(MAILBOX_SIZE);
  const messages = await Promise.all(
    rows.map(async (row) => {
      const object = await files.get(messageKey(row.id));
      if (!object) return null;
      return {
        id: row.id,
        from: row.from,
        to: JSON.parse(row.to) as string[],
        subject: row.subject,
        created_at: new Date(row.createdAt).toISOString(),
        raw: await object.text(),
      };
    }),
  );
  return messages.filter((m): m is MailboxMessage => m !== null);
}
