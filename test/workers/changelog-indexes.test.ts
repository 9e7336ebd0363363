import { describe, expect, it } from "vitest";
import { changelogQueries, publishedEntriesQuery } from "../../src/features/changelog/changelog.repo";
import { publishDueQuery } from "../../src/jobs/publish-changelog";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const list = { limit: 20, offset: 0 };

describe("changelog queries are served by indexes", () => {
  it.each([
    ["no filter", {}],
    ["a category", { category: "fixed" as const }],
    ["a status", { status: "draft" as const }],
  ])(
    "GET /v1/changelog with %s: the page walks the workspace's entries in order, and its total",
    async (_name, filter) => {
      const { page, total } = changelogQueries(db(), "acc_X", { ...list, ...filter });
      const plan = await planOf(page);
      expectIndexed(plan, "changelog_entries");
      expect(plan.join("\n")).toContain("changelog_account_created (account_id=?)");
      expectIndexed(await planOf(total), "changelog_entries");
    },
  );

  it("the public page and feed walk the published entries in order", async () => {
    const plan = await planOf(publishedEntriesQuery(db(), "acc_X"));
    expectIndexed(plan, "changelog_entries");
    expect(plan.join("\n")).toContain("changelog_account_status_published (account_id=? AND status=?)");
  });

  it("the cron's publication finds due entries by status and time", async () => {
    const plan = await planOf(publishDueQuery(db(), 0));
    expectIndexed(plan, "changelog_entries");
    expect(plan.join("\n")).toContain("changelog_status_published (status=? AND published_at<?)");
  });
});
