import { WorkspaceLinkQuery } from "../../lib/workspace-link";
import { formBody, htmlPage, page } from "../sessions/login.routes";
import { SurveyFormSchema, SurveyTokenParams } from "./survey-page.schemas";

const tags = ["Surveys"];

const ERRORS = {
  404: htmlPage(
    "A tampered or unknown link, a rating outside the survey's scale, or a survey deleted since; nothing is recorded.",
  ),
  410: htmlPage("The response is older than 14 days and can no longer be changed; nothing is recorded."),
  500: htmlPage("Something failed on our side."),
};

export const surveyPageRoute = page({
  method: "get",
  path: "/s/{token}",
  tags,
  summary: "Survey rating page",
  description:
    "A rating link of a survey email, opened in a browser: the question, the chosen rating and a form (optional comment, up to 2000 characters) whose button posts to the same URL. Opening it records NOTHING: mail scanners follow links. No authentication and no cookie: the signed token (ticket and rating) is the capability. The page runs no script; errors are HTML pages.",
  request: { params: SurveyTokenParams, query: WorkspaceLinkQuery },
  responses: { 200: htmlPage("The confirmation page."), ...ERRORS },
});

export const surveyPostRoute = page({
  method: "post",
  path: "/s/{token}",
  tags,
  summary: "Record a survey answer",
  description:
    "Records the token's rating for its ticket: the first post creates the response (`rsp_`, with the ticket, customer, inbox and the assignee kept when the email was sent) and counts it in the survey's summary in the same statement; a later post within 14 days of the response's `created_at` changes its rating (any link of the same email) and its comment, moving the counters from the old rating to the new one. Concurrent posts each answer the thank-you page, the last one applied stands (its rating with its comment), and the summary always equals a recount of the responses. After 14 days: 410 and nothing changes. `comment` left out keeps the comment; blank clears it. A disabled survey still records answers to emails already sent. The form must come from this origin (the portal's origin check); the token in the URL is what authorizes it. Answers a thank-you page with the comment form.",
  request: { params: SurveyTokenParams, query: WorkspaceLinkQuery, body: formBody(SurveyFormSchema) },
  responses: {
    200: htmlPage("Recorded."),
    400: htmlPage("The form could not be read (a comment over 2000 characters)."),
    403: htmlPage("The form was posted from another origin."),
    ...ERRORS,
  },
});
