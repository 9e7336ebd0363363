import { z } from "@hono/zod-openapi";
import { PERIOD_DAYS } from "../../ui/charts/period-switch";
import { dashboardRoute } from "../routes";

export const OverviewQuery = z.object({
  days: z
    .string()
    .optional()
    .openapi({
      description: `The charts' period: ${PERIOD_DAYS.join(", ")} days up to today (UTC); anything else shows 30.`,
      example: "30",
    }),
});

export const overviewRoute = dashboardRoute({
  method: "get",
  path: "/dashboard",
  summary: "Overview",
  description:
    "The workspace at a glance: each quota of the plan with its current use as a bar (and when its window resets); charts of the email and support reports per UTC day (emails sent, delivered, bounced, complained about, opened and clicked; tickets created and resolved; the median first response), as GET /v1/reports/email and GET /v1/reports/support answer for the same days, over the last 7, 30 (the default) or 90 days (`days`), each with its numbers as a table; and the most recent events.",
  request: { query: OverviewQuery },
});
