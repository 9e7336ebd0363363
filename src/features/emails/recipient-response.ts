import { sql } from "drizzle-orm";

/**
 * The transport's answer is kept once (issue 29, migration 0032): a recipient whose answer is the
 * email's `last_response` stores NULL and shows the email's. Only these states carry an answer
 * (a `pending` recipient has none; a `bounced` one keeps its report's diagnostic as it came). When
 * the email's `last_response` changes, the trigger `emails_last_response_kept` first writes the old
 * answer into the recipients that shared it, so none shows an answer it was not given.
 */
const SHARING_STATES = sql`('accepted', 'deferred', 'rejected', 'unknown')`;

/** A recipient's answer as the API shows it (in a query over `email_recipients`). */
export const shownRecipientResponse = sql<string | null>`coalesce(email_recipients.response,
  CASE WHEN email_recipients.state IN ${SHARING_STATES}
    THEN (SELECT last_response FROM emails WHERE emails.seq = email_recipients.email_seq) END)`;

/**
 * Drops the recipients' copies of their email's `last_response`, to come after the statements
 * that write both. Safe in any batch: it only empties what the email says already.
 */
export const unshareRecipientResponses = (emailSeq: number) => sql`
  UPDATE email_recipients SET response = NULL
  WHERE email_seq = ${emailSeq} AND state IN ${SHARING_STATES}
    AND response = (SELECT last_response FROM emails WHERE seq = ${emailSeq})`;
