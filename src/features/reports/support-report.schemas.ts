import { z } from "@hono/zod-openapi";
import { MAX_INTERVALS, REPORT_INTERVALS } from "./report-period";
import { SKETCH_RELATIVE_ACCURACY } from "./support-report.sketches";

const ACCURACY = `${SKETCH_RELATIVE_ACCURACY * 100}%`;
const percentile = (what: string) =>
  z
    .number()
    .nullable()
    .openapi({
      description: `${what}, in seconds, from a DDSketch merged over the interval's days: within ${ACCURACY} of the exact value (relative accuracy ${SKETCH_RELATIVE_ACCURACY}). Null when nothing was measured.`,
    });

const SlaOutcomesSchema = z
  .object({
    achieved: z.number().int().openapi({ description: "Targets of this kind met within their time." }),
    breached: z.number().int().openapi({
      description:
        "Targets of this kind missed: counted on the day of the due time missed (or of the late reply).",
    }),
    achievement: z.number().nullable().openapi({
      description: "achieved ÷ (achieved + breached), 0 to 1 (4 decimals); null when no target was decided.",
      example: 0.9375,
    }),
  })
  .openapi("SlaOutcomes");

const SupportFiguresSchema = z.object({
  created: z.number().int().openapi({ description: "Tickets created." }),
  resolved: z.number().int().openapi({
    description:
      "Tickets that entered `resolved` or `closed` from another status (`resolved` then `closed` is one).",
  }),
  reopened: z.number().int().openapi({
    description: "Tickets that left `resolved` or `closed` for `open`, `pending` or `on_hold`.",
  }),
  replies: z
    .number()
    .int()
    .openapi({ description: "Replies sent (inserted as non-drafts, or drafts sent)." }),
  first_responses: z.number().int().openapi({ description: "First responses measured." }),
  first_response_p50: percentile(
    "Median time from a ticket's first customer message to its first reply after it",
  ),
  first_response_p90: percentile("90th percentile of the first-response time"),
  resolution_p50: percentile("Median time from a ticket's creation to its resolution"),
  resolution_p90: percentile("90th percentile of the resolution time"),
  csat_average: z
    .number()
    .nullable()
    .openapi({ description: "Average CSAT rating (1–5), null without answers." }),
  csat_responses: z.number().int().openapi({ description: "CSAT answers." }),
  nps: z.number().int().nullable().openapi({
    description: "Net promoter score (−100 to 100): % promoters minus % detractors; null without answers.",
  }),
  nps_responses: z.number().int(),
  nps_promoters: z.number().int().openapi({ description: "NPS answers of 9 or 10." }),
  nps_passives: z.number().int().openapi({ description: "NPS answers of 7 or 8." }),
  nps_detractors: z.number().int().openapi({ description: "NPS answers of 0 to 6." }),
  sla: z
    .object({
      first_response: SlaOutcomesSchema,
      next_response: SlaOutcomesSchema,
      resolution: SlaOutcomesSchema,
    })
    .openapi({
      description:
        "SLA achievement per target, over the targets decided in the interval (tickets under an SLA policy: docs/sla.md). Each target clock counts once, when it is decided: met within its time (achieved, on the day it was met) or missed (breached, on the day of its due time, or of the reply or resolution that came late before the minute sweep marked it). A next-response clock restarted by a customer message counts again. Targets met as a ticket is created (an agent opening it with a reply) are not counted. With `assignee_id`, the assignee when the outcome was decided.",
    }),
});

export const SupportReportSchema = z
  .object({
    data: z.array(
      SupportFiguresSchema.extend({
        start: z.string().openapi({ description: "Start of the interval (inclusive), UTC." }),
        end: z.string().openapi({ description: "End of the interval (exclusive), UTC." }),
      }).openapi("SupportReportInterval"),
    ),
    totals: SupportFiguresSchema.openapi("SupportReportTotals"),
    from: z.string().openapi({ example: "2026-10-29T00:00:00.000Z" }),
    to: z.string().openapi({ example: "2026-11-28T00:00:00.000Z" }),
    interval: z.enum(REPORT_INTERVALS),
  })
  .openapi("SupportReport");

const dayText = (description: string) =>
  z.string().max(40).optional().openapi({ description, example: "2026-11-01" });

export const SupportReportQuerySchema = z.object({
  from: dayText("First UTC day (`YYYY-MM-DD` or `YYYY-MM-DDT00:00:00Z`). Default: 30 days before `to`."),
  to: dayText("End of the period, exclusive (a UTC day boundary). Default: the end of today, UTC."),
  interval: z
    .enum(REPORT_INTERVALS)
    .optional()
    .openapi({
      description: `\`day\` (default) or \`week\` (Monday 00:00 UTC, clipped to from/to). At most ${MAX_INTERVALS} intervals.`,
    }),
  inbox_id: z.string().max(64).optional().openapi({
    description:
      "Only tickets of this inbox. With `assignee_id`, only that assignee's tickets of this inbox.",
  }),
  assignee_id: z.string().max(64).optional().openapi({
    description:
      "Only tickets assigned to this user when the fact happened. Combines with `inbox_id` (both must hold).",
  }),
});
