import { desc, isNotNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emails } from "../../db/schema";
import { capturedPrefix } from "../../mail/transports/capture";

/** How many of the newest messages the mailbox shows. */
export const MAILBOX_SIZE = 50;

/** One envelope's copy of an email: what that recipient's server would have stored. */
export interface MailboxMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  created_at: string;
  /** The envelope: this copy's one recipient (RCPT TO) and its sender (MAIL FROM, the VERP bounce address). */
  recipient: string;
  return_path: string;
  raw: string;
}

/** Every envelope's copy of one email the capture transport kept, in recipient order. */
async function copiesOf(files: R2Bucket, emailId: string) {
  const listed = await files.list({ prefix: capturedPrefix(emailId), include: ["customMetadata"] });
  const copies = await Promise.all(
    listed.objects.map(async (o) => {
      const object = await files.get(o.key);
      const { recipient, mailFrom } = o.customMetadata ?? {};
      if (!object || !recipient || !mailFrom) return null;
      return { recipient, return_path: mailFrom, raw: await object.text() };
    }),
  );
  return copies.filter((c) => c !== null);
}

/**
 * The newest emails handed to the transport, in every workspace (a development tool: the local
 * database is the developer's own), one entry per envelope with the copy the capture transport
 * kept in R2. Development only, so the scan of `emails` by `sent_at` needs no index of its own.
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
    rows.map(async (row) =>
      (await copiesOf(files, row.id)).map((copy) => ({
        id: row.id,
        from: row.from,
        to: JSON.parse(row.to) as string[],
        subject: row.subject,
        created_at: new Date(row.createdAt).toISOString(),
        ...copy,
      })),
    ),
  );
  return messages.flat();
}
