import { z } from "@hono/zod-openapi";
import { offsetQuery } from "../../lib/pagination";
import { dashboardRoute } from "../routes";

export const SurveyListQuery = offsetQuery(20);

export const SurveyPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "srv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const surveyListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/surveys",
  summary: "Surveys",
  description:
    "The workspace's surveys, newest first: name, kind, status, responses, average rating and (NPS) the score, as the survey's summary counts them; paginated by `offset` and `limit` (default 20). Everyone signed in sees it. Surveys are created and edited through the API (/v1/surveys).",
  request: { query: SurveyListQuery },
});

export const surveyRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/surveys/{id}",
  summary: "Survey results",
  description:
    "A survey: its question, inboxes and summary; its score over the last 12 UTC weeks as a chart (the average rating of a CSAT survey, the NPS of an NPS one; a week without responses has no point), and those weeks as a table (Monday to Sunday, newest first: responses, average with a bar on the survey's scale, and for NPS the week's score), and its latest responses (rating, comment, ticket, the assignee when the survey was sent, received), paginated by `offset` and `limit` (default 20). Everyone signed in sees it.",
  request: { params: SurveyPath, query: SurveyListQuery },
});
