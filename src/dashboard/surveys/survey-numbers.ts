import type { SurveyKind } from "../../db/schema/surveys";

export {
  type RatingCounts,
  type Summary,
  summarize as summaryOf,
} from "../../features/surveys/survey-summary";

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
