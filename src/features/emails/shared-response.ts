import { sql } from "drizzle-orm";

/**
 * The transport's answer is kept once (issue 29, migration 0032): a recipient whose answer is its
 * email's `last_response` stores NULL and shows the email's, and so does the event of the attempt
 * that got it. Only these recipient states carry an answer (a `pending` recipient has none; a
 * `bounced` one keeps its report's diagnostic as it came), and only these events the transport's
 * (a report's events keep their diagnostic: receiving the same report twice compares it). When
 * the email's `last_response` changes, the trigger `emails_last_response_kept` first writes the
 * old answer into the rows that shared it, so none ends up with an answer it was not given.
 */
const SHARING_STATES = sql`('accepted', 'deferred', 'rejected', 'unknown')`;
const SHARING_EVENTS = sql`('sent', 'deferred', 'failed')`;

/** A recipient's answer as the API shows it (in a query over `email_recipients`). */
export const shownRecipientResponse = sql<string | null>`coalesce(email_recipients.response,
  CASE WHEN email_recipients.state IN ${SHARING_STATES}
    THEN (SELECT last_response FROM emails WHERE emails.seq = email_recipients.email_seq) END)`;

/**
 * Drops the recipients' and events' copies of their emails' `last_response`, to come after the
 * statements that write both. Safe in any batch: it only empties what each email says already.
 */
export const unshareResponses = (emailSeqs: number[]) => {
  const seqs = sql`(SELECT value FROM json_each(${JSON.stringify(emailSeqs)}))`;
  return [
    sql`UPDATE email_recipients SET response = NULL
      WHERE email_seq IN ${seqs} AND state IN ${SHARING_STATES}
        AND response = (SELECT last_response FROM emails WHERE seq = email_recipients.email_seq)`,
    sql`UPDATE email_events SET detail = NULL
      WHERE email_seq IN ${seqs} AND type IN ${SHARING_EVENTS}
        AND detail = (SELECT last_response FROM emails WHERE seq = email_events.email_seq)`,
  ];
};
