import type { SurveyKind } from "../../db/schema/surveys";

/** The counts a summary is made of, for a whole survey (its counters) or one week of it. */
export interface RatingCounts {
  responses: number;
  ratingSum: number;
  promoters: number;
  detractors: number;
}

export interface Summary {
  responses: number;
  /** The mean rating to two decimals; null without responses. */
  average: number | null;
  /** NPS only: % promoters (9–10) − % detractors (0–6), rounded to a whole number; null otherwise. */
  nps: number | null;
}

/** The one summary the API and the dashboard both show. */
export function summarize(kind: SurveyKind, counts: RatingCounts): Summary {
  const { responses } = counts;
  if (responses === 0) return { responses, average: null, nps: null };
  return {
    responses,
    average: Math.round((counts.ratingSum * 100) / responses) / 100,
    nps: kind === "nps" ? Math.round(((counts.promoters - counts.detractors) * 100) / responses) : null,
  };
}
