import { iso } from "../../lib/time";
import type { SurveyResponseRow, SurveyRow } from "./surveys.repo";

const round2 = (value: number) => Math.round(value * 100) / 100;

/** `responses`, `average` and, for NPS, the score, from the counters kept on the survey row. */
export function summaryOf(row: SurveyRow) {
  const responses = row.responsesCount;
  if (responses === 0) return { responses, average: null, nps: null };
  const nps =
    row.kind === "nps" ? Math.round(((row.promotersCount - row.detractorsCount) * 100) / responses) : null;
  return { responses, average: round2(row.ratingSum / responses), nps };
}

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
