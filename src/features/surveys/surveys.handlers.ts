import { namedList, standardList } from "../../lib/pagination";
import { createRouter, mount } from "../../lib/router";
import { surveyPagesRouter } from "./survey-page.handlers";
import {
  createSurveyRoute,
  deleteSurveyRoute,
  getSurveyRoute,
  listSurveyResponsesRoute,
  listSurveysRoute,
  updateSurveyRoute,
} from "./surveys.routes";
import {
  createSurvey,
  getSurvey,
  listSurveyResponses,
  listSurveys,
  removeSurvey,
  updateSurvey,
} from "./surveys.service";

export const surveysRouter = createRouter()
  .openapi(listSurveysRoute, async (c) => {
    const query = c.req.valid("query");
    const { surveys, total } = await listSurveys(c.var.ctx.db, c.var.ctx.accountId, query);
    return c.json(namedList("surveys", surveys, total, query), 200);
  })
  .openapi(createSurveyRoute, async (c) =>
    c.json(await createSurvey(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("json"), c.var.ctx.now), 201),
  )
  .openapi(getSurveyRoute, async (c) =>
    c.json(await getSurvey(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("param").id), 200),
  )
  .openapi(updateSurveyRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(
      await updateSurvey(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json"), c.var.ctx.now),
      200,
    );
  })
  .openapi(deleteSurveyRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeSurvey(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  })
  .openapi(listSurveyResponsesRoute, async (c) => {
    const query = c.req.valid("query");
    const { id } = c.req.valid("param");
    const { responses, total } = await listSurveyResponses(c.var.ctx.db, c.var.ctx.accountId, id, query);
    return c.json(standardList(responses, total, query), 200);
  });

mount(surveysRouter, "/", surveyPagesRouter);
