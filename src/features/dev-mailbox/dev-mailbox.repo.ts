import { desc, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emails } from "../../db/schema";
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

/** One shard's newest emails handed to the transport (development only: no index of its own needed). */
const newestIn = (db: Db): Promise<MailboxRow[]> =>
  db
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

/** The recipients the transport accepted, of these emails of one shard, by email id. */
async function acceptedIn(db: Db, ids: string[]): Promise<Map<string, string[]>> {
  const byEmail = new Map<string, string[]>();
  if (ids.length === 0) return byEmail;
  // Recipients are keyed by (email, address): within an email they come in address order.
  const rows = await db.all<{ email_id: string; address: string }>(sql`
    SELECT e.id AS email_id, r.address FROM email_recipients r JOIN emails e ON e.seq = r.email_seq
    WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))
      AND r.state IN ('accepted', 'bounced')
    ORDER BY r.email_seq, r.address`);
  for (const row of rows) byEmail.set(row.email_id, [...(byEmail.get(row.email_id) ?? []), row.address]);
  return byEmail;
}

/**
 * The newest emails handed to the transport, in every workspace of every shard (`shards`, read in
 * parallel: a development tool, the local databases are the developer's own), one entry per
 * envelope the transport accepted: with the capture transport, what each recipient's server would
 * have stored.
 */
export async function newestMessages(
  shards: Db[],
  files: R2Bucket,
  secret: string,
): Promise<MailboxMessage[]> {
  const perShard = await Promise.all(shards.map(async (db) => ({ db, rows: await newestIn(db) })));
  const newest = perShard
    .flatMap(({ db, rows }) => rows.map((row) => ({ db, row })))
    .sort((a, b) => b.row.createdAt - a.row.createdAt)
    .slice(0, MAILBOX_SIZE);
  const accepted = await Promise.all(
    perShard.map(({ db }) =>
      acceptedIn(
        db,
        newest.filter((n) => n.db === db).map((n) => n.row.id),
      ),
    ),
  );
  const recipientsOf = (id: string) => accepted.find((byEmail) => byEmail.has(id))?.get(id) ?? [];
  const messages = await Promise.all(
    newest.map(async ({ row }) =>
      (await copiesOf(files, secret, row, recipientsOf(row.id))).map((copy) => ({
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
