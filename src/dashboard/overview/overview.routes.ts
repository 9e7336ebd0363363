import { dashboardRoute } from "../routes";

export const overviewRoute = dashboardRoute({
  method: "get",
  path: "/dashboard",
  summary: "Overview",
  description:
    "The workspace at a glance: each quota of the plan with its current use as a bar (and when its window resets), and the most recent events.",
});
