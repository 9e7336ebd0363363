import type { SurveyKind } from "../../db/schema/surveys";

/** The counts a summary is made of, for a whole survey or one week of it. */
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

export function summaryOf(kind: SurveyKind, counts: RatingCounts): Summary {
  const { responses } = counts;
  if (responses === 0) return { responses, average: null, nps: null };
  return {
    responses,
    average: Math.round((counts.ratingSum / responses) * 100) / 100,
    nps: kind === "nps" ? Math.round(((counts.promoters - counts.detractors) / responses) * 100) : null,
  };
}

/** The scale a kind rates on (product.md: CSAT 1–5, NPS 0–10). */
export const SCALE: Record<SurveyKind, { min: number; max: number }> = {
  csat: { min: 1, max: 5 },
  nps: { min: 0, max: 10 },
};

export const WEEK_MS = 7 * 86_400_000;
/** 1970-01-05T00:00Z, the first Monday of the epoch: weeks run Monday to Sunday, in UTC. */
export const FIRST_MONDAY_MS = 4 * 86_400_000;

/** The number of the UTC week (Monday first) holding `ms`, counted from the epoch's first Monday. */
export const weekOf = (ms: number) => Math.floor((ms - FIRST_MONDAY_MS) / WEEK_MS);

/** When week number `week` starts. */
export const weekStart = (week: number) => FIRST_MONDAY_MS + week * WEEK_MS;
