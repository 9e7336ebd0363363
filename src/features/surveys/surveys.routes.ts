import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateSurveyBodySchema,
  SurveyListQuerySchema,
  SurveyListSchema,
  SurveyParamsSchema,
  SurveyResponseListSchema,
  SurveyResponseQuerySchema,
  SurveySchema,
  UpdateSurveyBodySchema,
} from "./surveys.schemas";

const tags = ["Surveys"];

const SENDING =
  "When a ticket of a covered inbox moves to `resolved` from another status (PATCH /v1/tickets/{id}, the `resolve` action of POST /v1/tickets/{id}/manage, a reply whose `status_after_send` or inbox `status_after_reply` is `resolved`, and the same actions in the dashboard), the newest `active` survey covering the inbox is emailed to the ticket's customer, at most once per ticket ever: a ticket resolved again after being reopened, or resolved twice at once, gets no second email. A ticket created already resolved gets none. Nothing is sent to a blocked or unsubscribed customer, nor when the email pipeline refuses the send (sender domain not verified, quota, suppressed address); the resolve itself never fails for it. The email comes from the inbox's address with `Auto-Submitted: auto-generated`, is listed in GET /v1/emails (source `survey`) and counts against the email quotas; it is prepared after the response, so it appears a moment later. It carries one link per rating (CSAT 1–5, NPS 0–10) to `/s/{token}`, a signed token naming the ticket and the rating.";

const SUMMARY =
  "`summary` is kept by the answers themselves: `responses`, `average` (null without responses) and, for `nps`, the score (% promoters − % detractors, an integer; null without responses or for `csat`).";

export const listSurveysRoute = defineRoute("read", {
  method: "get",
  path: "/v1/surveys",
  tags,
  summary: "List surveys",
  description: `The workspace's surveys, newest created first, \`limit\` 50 by default (at most 100). ${SUMMARY}`,
  request: { query: SurveyListQuerySchema },
  responses: { 200: jsonResponse(SurveyListSchema, "A page of surveys.") },
});

export const createSurveyRoute = defineRoute("write", {
  method: "post",
  path: "/v1/surveys",
  tags,
  summary: "Create a survey",
  description: `A new survey, \`active\` unless \`status\` says otherwise, covering \`inbox_ids\` (none when left out). An inbox id that is not one of the workspace's is 404. ${SENDING}`,
  request: { body: jsonBody(CreateSurveyBodySchema) },
  responses: { 201: jsonResponse(SurveySchema, "The new survey.") },
});

export const getSurveyRoute = defineRoute("read", {
  method: "get",
  path: "/v1/surveys/{id}",
  tags,
  summary: "Get a survey",
  description: SUMMARY,
  request: { params: SurveyParamsSchema },
  responses: { 200: jsonResponse(SurveySchema, "The survey.") },
});

export const updateSurveyRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/surveys/{id}",
  tags,
  summary: "Update a survey",
  description:
    "Changes the fields given; `inbox_ids` replaces the covered inboxes (an inbox id not of the workspace is 404); `updated_at` moves. `kind` cannot change once any email of the survey has gone out, answered or not (409 `survey_kind_locked`): its rating links are on the old scale (a CSAT 5 would count as an NPS detractor); create another survey for the other scale. A send racing the change either goes out on the old scale (and the change is refused) or is not sent. Emails already sent keep working after any change; a `disabled` survey sends no more emails but its links still record answers.",
  request: { params: SurveyParamsSchema, body: jsonBody(UpdateSurveyBodySchema) },
  responses: {
    200: jsonResponse(SurveySchema, "The updated survey."),
    409: jsonResponse(ErrorSchema, "A change of kind after the survey was emailed."),
  },
});

export const deleteSurveyRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/surveys/{id}",
  tags,
  summary: "Delete a survey",
  description:
    "Deletes the survey with its responses; the links of its emails then lead to a not-found page. Its tickets never get another survey email.",
  request: { params: SurveyParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});

export const listSurveyResponsesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/surveys/{id}/responses",
  tags,
  summary: "List a survey's responses",
  description:
    "The standard list: newest created first, `limit` 50 by default (at most 100), `total` counts the matches. Filters: `rating`, `inbox_id`, `created_after` (strictly after). `assignee_id` is the ticket's assignee when the survey email was sent, kept even if the ticket is reassigned later. A response is editable by its customer for 14 days after `created_at` (`updated_at` moves).",
  request: { params: SurveyParamsSchema, query: SurveyResponseQuerySchema },
  responses: { 200: jsonResponse(SurveyResponseListSchema, "A page of responses.") },
});
