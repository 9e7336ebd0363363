import { describe, expect, it } from "vitest";
import { responsesQueries, weeklyQuery } from "../../src/dashboard/surveys/surveys.queries";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("the Surveys pages' queries are served by indexes", () => {
  it("results per week: one range of survey_responses_survey_created, grouped (12 groups at most)", async () => {
    const plan = await planOf(weeklyQuery(db(), "acc_X", "srv_X", 0));
    const text = plan.join("\n");
    expect(text).toContain("survey_responses_survey_created (survey_id=? AND created_at>?)");
    expect(text).not.toMatch(/SCAN survey_responses(?! USING)/);
  });

  it("the latest responses walk the survey's responses in order, and their total", async () => {
    const { page, total } = responsesQueries(db(), "acc_X", "srv_X", 20, 0);
    const plan = await planOf(page);
    expectIndexed(plan, "survey_responses");
    expect(plan.join("\n")).toContain("survey_responses_survey_created (survey_id=?)");
    expectIndexed(await planOf(total), "survey_responses");
  });
});
