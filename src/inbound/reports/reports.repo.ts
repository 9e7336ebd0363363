import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailRecipients, emails, mailReports } from "../../db/schema";
import { emailIdInMessageId, messageIdOf } from "../../features/emails/message-id";

export interface ReportedEmail {
  id: string;
  accountId: string;
  /** Its recipients' addresses, lowercased: a report about anyone else changes nothing. */
  recipients: string[];
}

async function withRecipients(db: Db, email: { id: string; accountId: string } | undefined) {
  if (!email) return null;
  const rows = await db
    .select({ address: emailRecipients.address })
    .from(emailRecipients)
    .where(
      eq(
        emailRecipients.emailSeq,
        sql`(SELECT seq FROM emails WHERE id = ${email.id} AND account_id = ${email.accountId})`,
      ),
    );
  return { ...email, recipients: rows.map((r) => r.address.toLowerCase()) };
}

/**
 * The email a verified bounce token names, with its recipients, in one query. Not scoped to a
 * workspace: the token, signed by the service, is what names it, as an inbox address names its inbox.
 */
export async function emailById(db: Db, emailId: string): Promise<ReportedEmail | null> {
  const rows = await db
    .select({ id: emails.id, accountId: emails.accountId, address: emailRecipients.address })
    .from(emails)
    .leftJoin(emailRecipients, eq(emailRecipients.emailSeq, emails.seq))
    .where(eq(emails.id, emailId));
  const [first] = rows;
  if (!first) return null;
  const recipients = rows.flatMap((r) => (r.address === null ? [] : [r.address.toLowerCase()]));
  return { id: first.id, accountId: first.accountId, recipients };
}

/** The workspace's email with this Message-ID (what a report sent to an inbox address names). */
export async function emailByMessageId(db: Db, accountId: string, messageId: string) {
  // The service's own Message-IDs are derived from the email's id (message-id.ts): look it up by
  // that id, or by a Message-ID the caller chose, and keep it only if it is the one named.
  const ownId = emailIdInMessageId(messageId);
  const candidates = await db
    .select({
      id: emails.id,
      accountId: emails.accountId,
      from: emails.from,
      messageId: emails.messageId,
    })
    .from(emails)
    .where(
      and(
        eq(emails.accountId, accountId),
        ownId ? or(eq(emails.id, ownId), eq(emails.messageId, messageId)) : eq(emails.messageId, messageId),
      ),
    )
    .limit(2);
  const email = candidates.find((candidate) => messageIdOf(candidate) === messageId);
  return withRecipients(db, email && { id: email.id, accountId: email.accountId });
}

/**
 * The report's row, for the batch after its effects. `action` is read from the suppressions as
 * the effects left them, inside the same transaction: whether the report's bounce or complaint
 * (`counted`) left the address suppressed is known without a second round trip.
 */
export function insertReport(db: Db, row: Omit<typeof mailReports.$inferInsert, "action">, counted: boolean) {
  const action = counted
    ? sql`CASE WHEN EXISTS (SELECT 1 FROM suppressions WHERE account_id = ${row.accountId}
        AND email = ${row.recipient}) THEN 'suppressed' ELSE 'counted' END`
    : sql`'ignored'`;
  return db.insert(mailReports).values({ ...row, action });
}
