import { describe, expect, it } from "vitest";
import { coveringSurveyQuery } from "../../src/features/surveys/survey-requests.repo";
import { responseQueries, surveyQueries } from "../../src/features/surveys/surveys.repo";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const list = { limit: 50, offset: 0 };

describe("survey queries are served by indexes", () => {
  it("GET /v1/surveys walks the workspace's surveys in order", async () => {
    const { page, total } = surveyQueries(db(), "acc_X", list);
    const plan = await planOf(page);
    expectIndexed(plan, "surveys");
    expect(plan.join("\n")).toContain("surveys_account_created (account_id=?)");
    expectIndexed(await planOf(total), "surveys");
  });

  it.each([
    ["no filter", {}, "survey_responses_survey_created (survey_id=?)"],
    [
      "created_after",
      { created_after: "2026-01-01T00:00:00Z" },
      "survey_responses_survey_created (survey_id=? AND created_at>?)",
    ],
    ["a rating", { rating: 5 }, "survey_responses_survey_rating (survey_id=? AND rating=?)"],
    ["an inbox", { inbox_id: "inb_X" }, "survey_responses_survey_inbox (survey_id=? AND inbox_id=?)"],
  ])("GET /v1/surveys/{id}/responses with %s uses its index", async (_name, filter, index) => {
    const { page, total } = responseQueries(db(), "acc_X", "srv_X", { ...list, ...filter });
    const plan = await planOf(page);
    expectIndexed(plan, "survey_responses");
    expect(plan.join("\n")).toContain(index);
    expectIndexed(await planOf(total), "survey_responses");
  });

  it("a resolve finds the inbox's survey through survey_inboxes' index", async () => {
    // Sorting is left: over the few surveys that cover one inbox, found by index.
    const plan = await planOf(coveringSurveyQuery(db(), "acc_X", "inb_X"));
    expect(plan.filter((line) => line.startsWith("SCAN"))).toEqual([]);
    expect(plan.join("\n")).toContain("survey_inboxes_account_inbox (account_id=? AND inbox_id=?)");
  });
});
