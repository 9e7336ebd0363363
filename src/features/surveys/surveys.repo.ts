import { and, count, desc, eq, gt, inArray, type SQL, sql } from "drizzle-orm";
import type { Db, Statement } from "../../db/client";
import { inboxes } from "../../db/schema";
import { surveyInboxes, surveyResponses, surveys } from "../../db/schema/surveys";
import type { SurveyResponseQuery } from "./surveys.schemas";

export type SurveyRow = typeof surveys.$inferSelect;
export type SurveyResponseRow = typeof surveyResponses.$inferSelect;

const ofWorkspace = (accountId: string, id: string) =>
  and(eq(surveys.accountId, accountId), eq(surveys.id, id));

/** GET /v1/surveys: newest created first, with the total. */
export function surveyQueries(db: Db, accountId: string, page: { limit: number; offset: number }) {
  return {
    page: db
      .select()
      .from(surveys)
      .where(eq(surveys.accountId, accountId))
      .orderBy(desc(surveys.createdAt), desc(surveys.id))
      .limit(page.limit)
      .offset(page.offset),
    total: db.select({ total: count() }).from(surveys).where(eq(surveys.accountId, accountId)),
  };
}

export async function findSurvey(db: Db, accountId: string, id: string) {
  const rows = await db.select().from(surveys).where(ofWorkspace(accountId, id)).limit(1);
  return rows[0] ?? null;
}

/** The inboxes each survey covers, by survey id; an inbox deleted since is left out. */
export async function inboxIdsOf(db: Db, accountId: string, surveyIds: string[]) {
  const byId = new Map<string, string[]>(surveyIds.map((id) => [id, []]));
  if (surveyIds.length === 0) return byId;
  const rows = await db
    .select({ surveyId: surveyInboxes.surveyId, inboxId: surveyInboxes.inboxId })
    .from(surveyInboxes)
    .innerJoin(inboxes, and(eq(inboxes.id, surveyInboxes.inboxId), eq(inboxes.accountId, accountId)))
    .where(and(eq(surveyInboxes.accountId, accountId), inArray(surveyInboxes.surveyId, surveyIds)))
    .orderBy(surveyInboxes.inboxId);
  for (const row of rows) byId.get(row.surveyId)?.push(row.inboxId);
  return byId;
}

/** Which of these ids are not inboxes of the workspace. */
export async function unknownInboxes(db: Db, accountId: string, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: inboxes.id })
    .from(inboxes)
    .where(and(eq(inboxes.accountId, accountId), inArray(inboxes.id, ids)));
  const known = new Set(rows.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * The statements that make `inboxIds` the survey's inboxes. With `onlyIf`, they write only when
 * the condition holds as the batch runs (the survey's own conditional update took effect).
 */
export function replaceInboxesStatements(
  accountId: string,
  surveyId: string,
  inboxIds: string[],
  onlyIf: SQL = sql`1`,
): Statement[] {
  return [
    sql`DELETE FROM survey_inboxes WHERE survey_id = ${surveyId} AND account_id = ${accountId} AND ${onlyIf}`,
    sql`INSERT INTO survey_inboxes (survey_id, inbox_id, account_id)
        SELECT ${surveyId}, j.value, ${accountId} FROM json_each(${JSON.stringify(inboxIds)}) AS j
        WHERE ${onlyIf}`,
  ];
}

/**
 * The survey's update. A change of kind applies only while no email of the survey has gone out,
 * checked as the statement runs: every link already sent, answered or not, rates on the old scale.
 */
export function updateSurveyStatement(
  db: Db,
  accountId: string,
  id: string,
  changes: Partial<typeof surveys.$inferInsert>,
  kindChanges: boolean,
) {
  return db
    .update(surveys)
    .set(changes)
    .where(and(ofWorkspace(accountId, id), kindChanges ? sql`NOT ${anyEmailSent(accountId, id)}` : undefined))
    .returning();
}

/** True once the survey was emailed to any ticket (a survey_requests row, by its survey index). */
const anyEmailSent = (accountId: string, surveyId: string) =>
  sql`EXISTS (SELECT 1 FROM survey_requests WHERE survey_id = ${surveyId} AND account_id = ${accountId})`;

export async function deleteSurvey(db: Db, accountId: string, id: string) {
  const rows = await db.delete(surveys).where(ofWorkspace(accountId, id)).returning({ id: surveys.id });
  return rows.length > 0;
}

/** GET /v1/surveys/{id}/responses: newest first, each filter served by its own index. */
export function responseQueries(db: Db, accountId: string, surveyId: string, query: SurveyResponseQuery) {
  const where = and(
    eq(surveyResponses.surveyId, surveyId),
    eq(surveyResponses.accountId, accountId),
    query.rating === undefined ? undefined : eq(surveyResponses.rating, query.rating),
    query.inbox_id === undefined ? undefined : eq(surveyResponses.inboxId, query.inbox_id),
    query.created_after === undefined
      ? undefined
      : gt(surveyResponses.createdAt, Date.parse(query.created_after)),
  );
  return {
    page: db
      .select()
      .from(surveyResponses)
      .where(where)
      .orderBy(desc(surveyResponses.createdAt), desc(surveyResponses.id))
      .limit(query.limit)
      .offset(query.offset),
    total: db.select({ total: count() }).from(surveyResponses).where(where),
  };
}
