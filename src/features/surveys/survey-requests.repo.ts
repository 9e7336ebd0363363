import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customers, inboxes, tickets } from "../../db/schema";
import { type SurveyKind, surveyInboxes, surveyRequests, surveys } from "../../db/schema/surveys";

export type SurveyRequestRow = typeof surveyRequests.$inferSelect;

/**
 * What a resolved ticket's survey email needs, read together: the ticket as it is now (its
 * assignee is the one kept), its customer and inbox, the newest active survey covering the inbox,
 * and whether the ticket was already sent one.
 */
export async function surveyContextOf(db: Db, accountId: string, ticketId: string) {
  const [found, requested] = await db.batch([
    db
      .select()
      .from(tickets)
      .where(and(eq(tickets.accountId, accountId), eq(tickets.id, ticketId)))
      .limit(1),
    db
      .select({ ticketId: surveyRequests.ticketId })
      .from(surveyRequests)
      .where(and(eq(surveyRequests.accountId, accountId), eq(surveyRequests.ticketId, ticketId)))
      .limit(1),
  ]);
  const ticket = found[0];
  if (!ticket || requested.length > 0) return null;
  const [customer, inbox, survey] = await db.batch([
    db
      .select()
      .from(customers)
      .where(and(eq(customers.accountId, accountId), eq(customers.id, ticket.customerId)))
      .limit(1),
    db
      .select()
      .from(inboxes)
      .where(and(eq(inboxes.accountId, accountId), eq(inboxes.id, ticket.inboxId)))
      .limit(1),
    coveringSurveyQuery(db, accountId, ticket.inboxId),
  ]);
  if (!customer[0] || !inbox[0] || !survey[0]) return null;
  return { ticket, customer: customer[0], inbox: inbox[0], survey: survey[0] };
}

/**
 * The newest active survey covering an inbox, found through survey_inboxes' (account, inbox)
 * index. Only the survey's columns: D1 answers joined rows by column name, so same-named ones of
 * two tables would collide.
 */
export function coveringSurveyQuery(db: Db, accountId: string, inboxId: string) {
  return db
    .select({ id: surveys.id, kind: surveys.kind, question: surveys.question })
    .from(surveyInboxes)
    .innerJoin(surveys, eq(surveys.id, surveyInboxes.surveyId))
    .where(
      and(
        eq(surveyInboxes.accountId, accountId),
        eq(surveyInboxes.inboxId, inboxId),
        eq(surveys.status, "active"),
      ),
    )
    .orderBy(desc(surveys.createdAt), desc(surveys.id))
    .limit(1);
}

/**
 * The claim: the first request of a ticket wins, any later or concurrent one writes nothing. It
 * holds only while the survey still has the `kind` the email's links were built for: a PATCH that
 * changed the scale meanwhile makes it claim (and so send) nothing, and once a claim is in, the
 * kind stays (updateSurveyStatement), so no link ever rates on the wrong scale.
 */
export function claimStatement(row: SurveyRequestRow, kind: SurveyKind) {
  return sql`INSERT INTO survey_requests (ticket_id, account_id, survey_id, inbox_id, customer_id, assignee_id, email_id, sent_at)
    SELECT ${row.ticketId}, account_id, id, ${row.inboxId}, ${row.customerId}, ${row.assigneeId}, ${row.emailId}, ${row.sentAt}
    FROM surveys WHERE id = ${row.surveyId} AND account_id = ${row.accountId} AND kind = ${kind}
    ON CONFLICT (ticket_id) DO NOTHING`;
}

/** True as a batch runs only when this email's claim is the ticket's: its rows are written with it. */
export const claimedBy = (ticketId: string, emailId: string | SQL): SQL =>
  sql`EXISTS (SELECT 1 FROM survey_requests WHERE ticket_id = ${ticketId} AND email_id = ${emailId})`;

/** The survey request a rating link names, with its survey (gone when the survey was deleted). */
export async function findRequest(db: Db, accountId: string, ticketId: string) {
  const rows = await db
    .select({
      request: surveyRequests,
      survey: { id: surveys.id, kind: surveys.kind, question: surveys.question },
    })
    .from(surveyRequests)
    .innerJoin(surveys, eq(surveys.id, surveyRequests.surveyId))
    .where(and(eq(surveyRequests.accountId, accountId), eq(surveyRequests.ticketId, ticketId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The workspace of a ticket's survey request, by the ticket alone: for a link naming none. */
export async function accountOfRequest(db: Db, ticketId: string): Promise<string | null> {
  const rows = await db
    .select({ accountId: surveyRequests.accountId })
    .from(surveyRequests)
    .where(eq(surveyRequests.ticketId, ticketId))
    .limit(1);
  return rows[0]?.accountId ?? null;
}
