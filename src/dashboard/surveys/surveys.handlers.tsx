import { notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { renderPage } from "../page";
import { SurveyPage } from "./survey.page";
import { SurveyListPage } from "./survey-list.page";
import { findSurvey, latestResponses, listSurveys, weeklyResults } from "./surveys.queries";
import { surveyListRoute, surveyRoute } from "./surveys.routes";

export const surveysPagesRouter = createRouter()
  .openapi(surveyListRoute, async (c) => {
    const { limit, offset } = c.req.valid("query");
    const { db, accountId } = c.var.ctx;
    const list = await listSurveys(db, accountId, limit, offset);
    return renderPage(
      c,
      { title: "Surveys", nav: "Surveys" },
      <SurveyListPage surveys={list.surveys} total={list.total} limit={limit} offset={offset} />,
    );
  })
  .openapi(surveyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    const { db, accountId, now } = c.var.ctx;
    const survey = await findSurvey(db, accountId, id);
    if (!survey) throw notFound(`Survey ${id}`);
    const [weeks, latest] = await Promise.all([
      weeklyResults(db, accountId, survey, now),
      latestResponses(db, accountId, id, limit, offset),
    ]);
    return renderPage(
      c,
      { title: survey.name, nav: "Surveys" },
      <SurveyPage
        survey={survey}
        weeks={weeks}
        responses={latest.responses}
        total={latest.total}
        limit={limit}
        offset={offset}
      />,
    );
  });
