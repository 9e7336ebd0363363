import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { surveys } from "../../db/schema/surveys";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { OffsetParams } from "../../lib/pagination";
import { toSurvey, toSurveyResponse } from "./surveys.dto";
import {
  deleteSurvey,
  findSurvey,
  inboxIdsOf,
  replaceInboxesStatements,
  responseQueries,
  type SurveyRow,
  surveyQueries,
  unknownInboxes,
  updateSurveyStatement,
} from "./surveys.repo";
import type { CreateSurveyInput, SurveyResponseQuery, UpdateSurveyInput } from "./surveys.schemas";

export const surveyNotFound = (id: string) => notFound(`Survey ${id}`);

/** The ids once each, all of them inboxes of the workspace (404 naming the first that is not). */
async function checkedInboxes(db: Db, accountId: string, ids: string[]) {
  const distinct = [...new Set(ids)];
  const [unknown] = await unknownInboxes(db, accountId, distinct);
  if (unknown) throw notFound(`Inbox ${unknown}`);
  return distinct;
}

async function withInboxes(db: Db, accountId: string, row: SurveyRow) {
  const inboxIds = await inboxIdsOf(db, accountId, [row.id]);
  return toSurvey(row, inboxIds.get(row.id) ?? []);
}

export async function listSurveys(db: Db, accountId: string, page: OffsetParams) {
  const { page: query, total } = surveyQueries(db, accountId, page);
  const [rows, [counted]] = await db.batch([query, total]);
  const inboxIds = await inboxIdsOf(
    db,
    accountId,
    rows.map((r) => r.id),
  );
  return { surveys: rows.map((r) => toSurvey(r, inboxIds.get(r.id) ?? [])), total: counted?.total ?? 0 };
}

export async function createSurvey(db: Db, accountId: string, input: CreateSurveyInput, now = Date.now()) {
  const inboxIds = await checkedInboxes(db, accountId, input.inbox_ids);
  const row: SurveyRow = {
    id: newId("srv"),
    accountId,
    name: input.name,
    kind: input.kind,
    question: input.question,
    status: input.status,
    responsesCount: 0,
    ratingSum: 0,
    promotersCount: 0,
    detractorsCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await runBatch(db, [
    db.insert(surveys).values(row),
    ...replaceInboxesStatements(accountId, row.id, inboxIds),
  ]);
  return toSurvey(row, inboxIds);
}

export async function getSurvey(db: Db, accountId: string, id: string) {
  const row = await findSurvey(db, accountId, id);
  if (!row) throw surveyNotFound(id);
  return withInboxes(db, accountId, row);
}

const kindLocked = (id: string) =>
  conflict(
    "survey_kind_locked",
    "Survey kind is locked",
    `Survey ${id} has emails out whose rating links are on its kind's scale; its kind cannot change. Create another survey instead.`,
  );

/**
 * PATCH: the fields given; `inbox_ids` replaces the covered inboxes. The update and the new
 * inboxes commit together, and only if a change of kind found no survey email sent as it ran.
 */
export async function updateSurvey(
  db: Db,
  accountId: string,
  id: string,
  input: UpdateSurveyInput,
  now = Date.now(),
) {
  const current = await findSurvey(db, accountId, id);
  if (!current) throw surveyNotFound(id);
  const kindChanges = input.kind !== undefined && input.kind !== current.kind;
  const inboxIds = input.inbox_ids && (await checkedInboxes(db, accountId, input.inbox_ids));
  const kind = input.kind ?? current.kind;
  const applied = sql`EXISTS (SELECT 1 FROM surveys WHERE id = ${id} AND account_id = ${accountId} AND kind = ${kind})`;
  const changes = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.question !== undefined ? { question: input.question } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    kind,
    updatedAt: now,
  };
  const [result] = await runBatch(db, [
    updateSurveyStatement(db, accountId, id, changes, kindChanges),
    ...(inboxIds ? replaceInboxesStatements(accountId, id, inboxIds, applied) : []),
  ]);
  if (!result?.meta.changes) {
    if (!(await findSurvey(db, accountId, id))) throw surveyNotFound(id);
    throw kindLocked(id);
  }
  return getSurvey(db, accountId, id);
}

/** DELETE: its inboxes, survey requests and responses go with it (foreign keys cascade). */
export async function removeSurvey(db: Db, accountId: string, id: string) {
  if (!(await deleteSurvey(db, accountId, id))) throw surveyNotFound(id);
}

export async function listSurveyResponses(
  db: Db,
  accountId: string,
  surveyId: string,
  query: SurveyResponseQuery,
) {
  if (!(await findSurvey(db, accountId, surveyId))) throw surveyNotFound(surveyId);
  const { page, total } = responseQueries(db, accountId, surveyId, query);
  const [rows, [counted]] = await db.batch([page, total]);
  return { responses: rows.map(toSurveyResponse), total: counted?.total ?? 0 };
}
