import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { enterLinkWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { inWorkspace } from "../../lib/workspace-link";
import { verifySurveyToken } from "../../mail/survey-token";
import { formOrigin, pageSecurity } from "../sessions/page-security";
import { SurveyClosedPage, SurveyNotFoundPage, SurveyRatingPage, SurveyThanksPage } from "./survey.pages";
import { editable, type FoundRequest, findResponse, recordAnswer } from "./survey-answer";
import { isRatingOf, ratingsOf } from "./survey-mail";
import { surveyPageRoute, surveyPostRoute } from "./survey-page.routes";
import { accountOfRequest, findRequest } from "./survey-requests.repo";

/**
 * The survey request a token names and its rating, the request entering its workspace (the one
 * the link names, else the one holding the request); null for a tampered token, a gone survey or
 * a link naming another workspace.
 */
async function choiceOf(c: Context<AppEnv>, token: string) {
  const choice = await verifySurveyToken(c.env.ENCRYPTION_KEY, token);
  if (!choice) return null;
  const ctx = await enterLinkWorkspace(c, (db) => accountOfRequest(db, choice.ticketId));
  if (!ctx) return null;
  const found = await findRequest(ctx.db, ctx.accountId, choice.ticketId);
  if (!found || !isRatingOf(found.survey.kind, choice.rating)) return null;
  return { ctx, found, rating: choice.rating };
}

const viewOf = (found: FoundRequest, rating: number, token: string, comment: string | null) => ({
  question: found.survey.question,
  rating,
  top: Math.max(...ratingsOf(found.survey.kind)),
  action: inWorkspace(`/s/${token}`, found.request.accountId),
  comment,
});

/**
 * The rating links of survey emails. The portal's headers (no script, forms post here, nothing
 * cached) and its origin check on posts; no session or cookie. The token is the capability.
 */
export const surveyPagesRouter = createRouter();
surveyPagesRouter.use("/s/*", pageSecurity, formOrigin);

surveyPagesRouter
  .openapi(surveyPageRoute, async (c) => {
    const { token } = c.req.valid("param");
    const choice = await choiceOf(c, token);
    if (!choice) return c.html(<SurveyNotFoundPage />, 404);
    const { request } = choice.found;
    const current = await findResponse(choice.ctx.db, request.accountId, request.ticketId);
    if (current && !editable(current, choice.ctx.now)) return c.html(<SurveyClosedPage />, 410);
    const view = viewOf(choice.found, choice.rating, token, current?.comment ?? null);
    return c.html(<SurveyRatingPage {...view} answered={current !== null} />, 200);
  })
  .openapi(surveyPostRoute, async (c) => {
    const { token } = c.req.valid("param");
    const choice = await choiceOf(c, token);
    if (!choice) return c.html(<SurveyNotFoundPage />, 404);
    const { comment } = c.req.valid("form");
    const text = comment === undefined ? undefined : comment.trim() || null;
    const outcome = await recordAnswer(choice.ctx.db, choice.found, choice.rating, text, choice.ctx.now);
    if (outcome.kind === "closed") return c.html(<SurveyClosedPage />, 410);
    const view = viewOf(choice.found, outcome.response.rating, token, outcome.response.comment);
    return c.html(<SurveyThanksPage {...view} />, 200);
  });
