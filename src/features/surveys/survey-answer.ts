import { and, eq, gt } from "drizzle-orm";
import type { Db } from "../../db/client";
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

/**
 * Records the rating of a link (and the comment, when the form sent one; `undefined` keeps it) in
 * one statement: the first answer creates the response (from the survey request, so the assignee
 * is the one at send time), a later one within 14 days overwrites it, after that nothing changes
 * and no row comes back. Concurrent posts each apply whole, one after the other, so the last one
 * stands; the survey's counters follow the row through the triggers of migration 0020.
 */
export async function recordAnswer(
  db: Db,
  found: FoundRequest,
  rating: number,
  comment: string | null | undefined,
  now: number,
): Promise<AnswerOutcome> {
  const { request } = found;
  const [saved] = await db
    .insert(surveyResponses)
    .values({
      id: newId("rsp"),
      accountId: request.accountId,
      surveyId: request.surveyId,
      ticketId: request.ticketId,
      inboxId: request.inboxId,
      customerId: request.customerId,
      assigneeId: request.assigneeId,
      rating,
      comment: comment ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: surveyResponses.ticketId,
      set: { rating, updatedAt: now, ...(comment === undefined ? {} : { comment }) },
      setWhere: and(
        eq(surveyResponses.accountId, request.accountId),
        gt(surveyResponses.createdAt, now - EDIT_WINDOW_MS),
      ),
    })
    .returning();
  return saved ? { kind: "saved", response: saved } : { kind: "closed" };
}
