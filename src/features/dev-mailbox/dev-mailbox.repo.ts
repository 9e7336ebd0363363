import { desc, isNotNull, sql } from "drizzle-orm";
import { createDb, type Db } from "../../db/client";
import { emails } from "../../db/schema";
import { everyShard } from "../../db/shards";
import { bounceAddress } from "../../mail/bounce-address";
import { messageKey } from "../emails/message-key";

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

/**
 * Every envelope's copy of one email: the message as built (kept in R2 when it was built) under
 * the Return-Path its envelope carried, for each recipient the transport accepted (a bounce
 * reported later does not unsend it), in the order they were written.
 */
async function copiesOf(files: R2Bucket, secret: string, email: MailboxRow, recipients: string[]) {
  if (recipients.length === 0) return [];
  const object = await files.get(messageKey(email.id));
  if (!object) return [];
  const raw = await object.text();
  return Promise.all(
    recipients.map(async (recipient) => {
      const returnPath = await bounceAddress(secret, email.id, recipient, email.fromAddress);
      return { recipient, return_path: returnPath, raw: `Return-Path: <${returnPath}>\r\n${raw}` };
    }),
  );
}

interface MailboxRow {
  id: string;
  from: string;
  fromAddress: string;
  to: string;
  subject: string;
  createdAt: number;
}

/** The newest emails of one shard handed to the transport, with the recipients it accepted. */
async function newestOfShard(db: Db) {
  const rows: MailboxRow[] = await db
    .select({
      id: emails.id,
      from: emails.from,
      fromAddress: emails.fromAddress,
      to: emails.to,
      subject: emails.subject,
      createdAt: emails.createdAt,
    })
    .from(emails)
    .where(isNotNull(emails.sentAt))
    .orderBy(desc(emails.createdAt), desc(emails.seq))
    .limit(MAILBOX_SIZE);
  // Recipients are keyed by (email, address): within an email they come in address order.
  const accepted = await db.all<{ email_id: string; address: string }>(sql`
    SELECT e.id AS email_id, r.address FROM email_recipients r JOIN emails e ON e.seq = r.email_seq
    WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))
      AND r.state IN ('accepted', 'bounced')
    ORDER BY r.email_seq, r.address`);
  return rows.map((row) => ({
    row,
    recipients: accepted.filter((r) => r.email_id === row.id).map((r) => r.address),
  }));
}

/**
 * The newest emails handed to the transport, in every workspace of every shard (a development
 * tool: the local databases are the developer's own; the shards are read in parallel), one entry
 * per envelope the transport accepted: with the capture transport, what each recipient's server
 * would have stored. Development only, so the scan of `emails` by `sent_at` needs no index of its own.
 */
export async function newestMessages(env: Env): Promise<MailboxMessage[]> {
  const shards = await Promise.all(
    everyShard(env).map(({ env: scoped }) => newestOfShard(createDb(scoped.DB))),
  );
  // Each shard's come newest first; a stable sort keeps that order between equal times.
  const newest = shards
    .flat()
    .sort((a, b) => b.row.createdAt - a.row.createdAt)
    .slice(0, MAILBOX_SIZE);
  const messages = await Promise.all(
    newest.map(async ({ row, recipients }) =>
      (await copiesOf(env.FILES, env.ENCRYPTION_KEY, row, recipients)).map((copy) => ({
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
