import { and, eq, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { surveyResponses } from "../../db/schema/surveys";
import { newId } from "../../lib/ids";
import type { findRequest } from "./survey-requests.repo";
import type { SurveyResponseRow } from "./surveys.repo";

/** product.md: a response stays editable for 14 days after it was first recorded. */
export const EDIT_WINDOW_MS = 14 * 86_400_000;

export type FoundRequest = NonNullable<Awaited<ReturnType<typeof findRequest>>>;

/** The outcome of a post: recorded (created or changed), or refused because the window closed. */
export type AnswerOutcome = { kind: "saved"; response: SurveyResponseRow } | { kind: "closed" };

export const editable = (response: SurveyResponseRow, now: number) =>
  now - response.createdAt < EDIT_WINDOW_MS;

export async function findResponse(db: Db, accountId: string, ticketId: string) {
  const rows = await db
    .select()
    .from(surveyResponses)
    .where(and(eq(surveyResponses.accountId, accountId), eq(surveyResponses.ticketId, ticketId)))
    .limit(1);
  return rows[0] ?? null;
}

/** A rating's contribution to the survey's counters (NPS: 9–10 promote, 0–6 detract). */
function weights(kind: FoundRequest["survey"]["kind"], rating: number) {
  const nps = kind === "nps";
  return { rating, promoter: nps && rating >= 9 ? 1 : 0, detractor: nps && rating <= 6 ? 1 : 0 };
}

/**
 * The first answer: the response (from the survey request, so the assignee is the one at send
 * time) and the survey's counters, in one batch. The counters move only if this very insert
 * happened, so of two concurrent first answers one creates and counts, the other creates nothing.
 */
async function create(db: Db, found: FoundRequest, rating: number, comment: string | null, now: number) {
  const { request, survey } = found;
  const id = newId("rsp");
  const w = weights(survey.kind, rating);
  const [inserted] = await runBatch(db, [
    sql`INSERT INTO survey_responses (id, account_id, survey_id, ticket_id, inbox_id, customer_id, assignee_id, rating, comment, created_at, updated_at)
        VALUES (${id}, ${request.accountId}, ${request.surveyId}, ${request.ticketId}, ${request.inboxId}, ${request.customerId}, ${request.assigneeId}, ${rating}, ${comment}, ${now}, ${now})
        ON CONFLICT (ticket_id) DO NOTHING`,
    sql`UPDATE surveys SET responses_count = responses_count + 1, rating_sum = rating_sum + ${w.rating},
          promoters_count = promoters_count + ${w.promoter}, detractors_count = detractors_count + ${w.detractor}
        WHERE id = ${survey.id} AND account_id = ${request.accountId}
          AND EXISTS (SELECT 1 FROM survey_responses WHERE id = ${id})`,
  ]);
  return (inserted?.meta.changes ?? 0) > 0;
}

/**
 * An edit within the window: the counters move by old → new rating, and both statements hold only
 * while the response still has the rating this request read and is still editable, so concurrent
 * edits never count one change twice or lose one.
 */
async function edit(
  db: Db,
  found: FoundRequest,
  current: SurveyResponseRow,
  rating: number,
  comment: string | null | undefined,
  now: number,
) {
  const { survey } = found;
  const before = weights(survey.kind, current.rating);
  const after = weights(survey.kind, rating);
  const unchanged = sql`EXISTS (SELECT 1 FROM survey_responses WHERE id = ${current.id} AND rating = ${current.rating} AND created_at > ${now - EDIT_WINDOW_MS})`;
  const [, updated] = await runBatch(db, [
    sql`UPDATE surveys SET rating_sum = rating_sum + ${after.rating - before.rating},
          promoters_count = promoters_count + ${after.promoter - before.promoter},
          detractors_count = detractors_count + ${after.detractor - before.detractor}
        WHERE id = ${survey.id} AND account_id = ${current.accountId} AND ${unchanged}`,
    sql`UPDATE survey_responses SET rating = ${rating},
          comment = ${comment === undefined ? sql`comment` : comment}, updated_at = ${now}
        WHERE id = ${current.id} AND account_id = ${current.accountId} AND ${unchanged}`,
  ]);
  return (updated?.meta.changes ?? 0) > 0;
}

/** Enough for two concurrent requests to settle; each failed round means another answer won. */
const MAX_ROUNDS = 4;

/**
 * Records the rating of a link (and the comment, when the form sent one; `undefined` keeps it):
 * the first answer creates the response, later ones within 14 days change it, after that nothing.
 */
export async function recordAnswer(
  db: Db,
  found: FoundRequest,
  rating: number,
  comment: string | null | undefined,
  now: number,
): Promise<AnswerOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await findResponse(db, found.request.accountId, found.request.ticketId);
    if (current && !editable(current, now)) return { kind: "closed" };
    const done = current
      ? await edit(db, found, current, rating, comment, now)
      : await create(db, found, rating, comment ?? null, now);
    if (done) {
      const saved = await findResponse(db, found.request.accountId, found.request.ticketId);
      if (saved) return { kind: "saved", response: saved };
    }
  }
  throw new Error("The survey answer kept changing under concurrent posts.");
}
