import { iso } from "../../lib/time";
import { summarize } from "./survey-summary";
import type { SurveyResponseRow, SurveyRow } from "./surveys.repo";

/** `responses`, `average` and, for NPS, the score, from the counters kept on the survey row. */
export const summaryOf = (row: SurveyRow) =>
  summarize(row.kind, {
    responses: row.responsesCount,
    ratingSum: row.ratingSum,
    promoters: row.promotersCount,
    detractors: row.detractorsCount,
  });

export function toSurvey(row: SurveyRow, inboxIds: string[]) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    question: row.question,
    inbox_ids: inboxIds,
    status: row.status,
    summary: summaryOf(row),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function toSurveyResponse(row: SurveyResponseRow) {
  return {
    id: row.id,
    survey_id: row.surveyId,
    ticket_id: row.ticketId,
    customer_id: row.customerId,
    assignee_id: row.assigneeId,
    inbox_id: row.inboxId,
    rating: row.rating,
    comment: row.comment,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
