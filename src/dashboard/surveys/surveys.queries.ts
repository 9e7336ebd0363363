import { and, count, desc, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { inboxes, surveyInboxes, surveyResponses, surveys, tickets, users } from "../../db/schema";
import { type Summary, summarize } from "../../features/surveys/survey-summary";
import { FIRST_MONDAY_MS, WEEK_MS, weekOf, weekStart } from "./survey-numbers";

/**
 * The reads behind the Surveys pages, on the committed schema. Every query names the workspace.
 * The summary comes from the counters the surveys service keeps on each survey row.
 */

export type SurveyRow = typeof surveys.$inferSelect;
export type SurveyWithSummary = SurveyRow & { summary: Summary };

const withSummary = (row: SurveyRow): SurveyWithSummary => ({
  ...row,
  summary: summarize(row.kind, {
    responses: row.responsesCount,
    ratingSum: row.ratingSum,
    promoters: row.promotersCount,
    detractors: row.detractorsCount,
  }),
});

export async function listSurveys(db: Db, accountId: string, limit: number, offset: number) {
  const where = eq(surveys.accountId, accountId);
  const [rows, [counted]] = await db.batch([
    db
      .select()
      .from(surveys)
      .where(where)
      .orderBy(desc(surveys.createdAt), desc(surveys.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(surveys).where(where),
  ]);
  return { surveys: rows.map(withSummary), total: counted?.total ?? 0 };
}

export async function findSurvey(db: Db, accountId: string, id: string) {
  const [rows, covered] = await db.batch([
    db
      .select()
      .from(surveys)
      .where(and(eq(surveys.accountId, accountId), eq(surveys.id, id)))
      .limit(1),
    db
      .select({ id: inboxes.id, name: inboxes.name })
      .from(surveyInboxes)
      .innerJoin(inboxes, and(eq(inboxes.id, surveyInboxes.inboxId), eq(inboxes.accountId, accountId)))
      .where(and(eq(surveyInboxes.accountId, accountId), eq(surveyInboxes.surveyId, id)))
      .orderBy(inboxes.name),
  ]);
  const row = rows[0];
  return row ? { ...withSummary(row), inboxes: covered } : null;
}

export interface WeekResult extends Summary {
  /** When the week (Monday 00:00 UTC) starts. */
  startsAt: number;
}

/** Each UTC week's counts of a survey's responses since `since`: one GROUP BY over an index range. */
export function weeklyQuery(db: Db, accountId: string, surveyId: string, since: number) {
  // Inlined integers, so that SQLite divides as integers (a bound number may arrive as a REAL).
  const week = sql<number>`(${surveyResponses.createdAt} - ${sql.raw(String(FIRST_MONDAY_MS))}) / ${sql.raw(String(WEEK_MS))}`;
  return db
    .select({
      week,
      responses: count(),
      ratingSum: sql<number>`sum(${surveyResponses.rating})`,
      promoters: sql<number>`sum(${surveyResponses.rating} >= 9)`,
      detractors: sql<number>`sum(${surveyResponses.rating} <= 6)`,
    })
    .from(surveyResponses)
    .where(
      and(
        eq(surveyResponses.surveyId, surveyId),
        gte(surveyResponses.createdAt, since),
        eq(surveyResponses.accountId, accountId),
      ),
    )
    .groupBy(week);
}

/**
 * The responses of the last `weeks` UTC weeks (this one included), newest week first, with the
 * average and NPS of each; a week without responses is there with zeros.
 */
export async function weeklyResults(
  db: Db,
  accountId: string,
  survey: Pick<SurveyRow, "id" | "kind">,
  now: number,
  weeks = 12,
): Promise<WeekResult[]> {
  const newest = weekOf(now);
  const rows = await weeklyQuery(db, accountId, survey.id, weekStart(newest - weeks + 1));
  const byWeek = new Map(rows.map((row) => [Number(row.week), row]));
  return Array.from({ length: weeks }, (_, i) => {
    const number = newest - i;
    const counts = byWeek.get(number) ?? { responses: 0, ratingSum: 0, promoters: 0, detractors: 0 };
    return { startsAt: weekStart(number), ...summarize(survey.kind, counts) };
  });
}

/** The newest responses, with their ticket's subject and the assignee kept at send time. */
export function responsesQueries(db: Db, accountId: string, surveyId: string, limit: number, offset: number) {
  const where = and(eq(surveyResponses.accountId, accountId), eq(surveyResponses.surveyId, surveyId));
  return {
    page: db
      .select({
        id: surveyResponses.id,
        rating: surveyResponses.rating,
        comment: surveyResponses.comment,
        ticketId: surveyResponses.ticketId,
        ticketSubject: tickets.subject,
        assigneeId: surveyResponses.assigneeId,
        assigneeName: users.name,
        assigneeEmail: users.email,
        createdAt: surveyResponses.createdAt,
      })
      .from(surveyResponses)
      .leftJoin(tickets, and(eq(tickets.id, surveyResponses.ticketId), eq(tickets.accountId, accountId)))
      .leftJoin(users, and(eq(users.id, surveyResponses.assigneeId), eq(users.accountId, accountId)))
      .where(where)
      .orderBy(desc(surveyResponses.createdAt), desc(surveyResponses.id))
      .limit(limit)
      .offset(offset),
    total: db.select({ total: count() }).from(surveyResponses).where(where),
  };
}

export async function latestResponses(
  db: Db,
  accountId: string,
  surveyId: string,
  limit: number,
  offset: number,
) {
  const { page, total } = responsesQueries(db, accountId, surveyId, limit, offset);
  const [rows, [counted]] = await db.batch([page, total]);
  return { responses: rows, total: counted?.total ?? 0 };
}

export type ResponseRow = Awaited<ReturnType<typeof latestResponses>>["responses"][number];
