import { sql } from "drizzle-orm";
import type { Statement } from "../../db/client";
import { bounceStatements } from "../../features/suppressions/bounces";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";
import type { ReportedRecipient } from "./read-report";
import type { ReportedEmail } from "./reports.repo";

/** What each kind of report sets as the email's `last_event`. */
const EVENTS = { failed: "bounced", delayed: "delayed", complaint: "complained" } as const;
/** Statuses of an email that went out: a report about anything else (still sending) waits. */
const WENT_OUT = sql`('sent', 'delivered', 'bounced')`;

/**
 * A report's delay of a recipient (`r`, per recipient) not told before: the email went out, the
 * recipient is still accepted, and no `delayed` event of the email has its diagnostic yet (the
 * same report received again adds none).
 */
const delayNotRecorded = (email: ReportedEmail) => sql`e.account_id = ${email.accountId}
  AND e.status IN ${WENT_OUT}
  AND EXISTS (SELECT 1 FROM email_recipients x WHERE x.email_seq = e.seq
    AND x.address = r.value ->> '$.address' AND x.state IN ('accepted', 'unknown'))
  AND NOT EXISTS (SELECT 1 FROM email_events v WHERE v.email_seq = e.seq AND v.type = 'delayed'
    AND v.detail IS r.value ->> '$.response')`;

function recipientStatements(email: ReportedEmail, r: ReportedRecipient, now: number): Statement[] {
  const scope = sql`email_seq = (SELECT seq FROM emails WHERE id = ${email.id} AND account_id = ${email.accountId})
    AND address = ${r.address}`;
  if (r.action === "failed") {
    return [
      sql`UPDATE email_recipients SET state = 'bounced', response = ${r.diagnostic}
          WHERE ${scope} AND state IN ('accepted', 'unknown', 'bounced')`,
    ];
  }
  if (r.action === "delayed") {
    return [
      ...deliveryOutcomes.recipients(
        [{ emailId: email.id, address: r.address, state: "deferred", response: r.diagnostic }],
        delayNotRecorded(email),
        now,
      ),
      sql`UPDATE email_recipients SET response = ${r.diagnostic}
          WHERE ${scope} AND state IN ('accepted', 'unknown')`,
    ];
  }
  return [];
}

/**
 * The email's own record of the report: its status (`bounced` once every recipient bounced or
 * was refused), `last_event`, `last_response` (the diagnostic) and an email event. A delay or a
 * complaint changes no status; the same report twice adds no second event.
 */
function emailStatements(email: ReportedEmail, last: ReportedRecipient, now: number): Statement[] {
  const event = EVENTS[last.action as keyof typeof EVENTS];
  const status =
    event === "bounced"
      ? sql`CASE WHEN NOT EXISTS (SELECT 1 FROM email_recipients r WHERE r.email_seq = emails.seq
              AND r.state NOT IN ('bounced', 'rejected')) THEN 'bounced' ELSE status END`
      : sql`status`;
  return [
    // Before the event: a campaign counts the email's first bounce only.
    ...(event === "bounced" ? deliveryOutcomes.firstBounce(email.id, WENT_OUT) : []),
    sql`INSERT INTO email_events (email_seq, type, detail, created_at)
        SELECT e.seq, ${event}, ${last.diagnostic}, ${now} FROM emails e
        WHERE e.id = ${email.id} AND e.status IN ${WENT_OUT}
          AND NOT EXISTS (SELECT 1 FROM email_events WHERE email_seq = e.seq AND type = ${event}
            AND detail = ${last.diagnostic})`,
    sql`UPDATE emails SET status = ${status}, last_event = ${event}, last_response = ${last.diagnostic},
          last_event_at = ${now}, updated_at = ${now}
        WHERE id = ${email.id} AND account_id = ${email.accountId} AND status IN ${WENT_OUT}`,
  ];
}

/**
 * The statements a report's actionable recipients make, for one batch: each recipient's state,
 * its bounce or complaint (suppressing as the rules say), then the email. Recipients the email
 * was not sent to are left out by the caller: a report cannot suppress just anyone.
 */
export function reportStatements(email: ReportedEmail, recipients: ReportedRecipient[], now: number) {
  const statements = recipients.flatMap((r) => [
    ...recipientStatements(email, r, now),
    ...(r.kind
      ? bounceStatements(
          {
            accountId: email.accountId,
            email: r.address,
            kind: r.kind,
            emailId: email.id,
            detail: r.diagnostic,
          },
          now,
        )
      : []),
  ]);
  // The email's last event is the gravest the report holds: a bounce, a complaint, then a delay.
  const last = ["failed", "complaint", "delayed"]
    .map((action) => recipients.find((r) => r.action === action))
    .find((r) => r !== undefined);
  return last ? [...statements, ...emailStatements(email, last, now)] : statements;
}
