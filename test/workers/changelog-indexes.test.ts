import { describe, expect, it } from "vitest";
import { changelogQueries, publishedEntriesQuery } from "../../src/features/changelog/changelog.repo";
import { publishDueQuery } from "../../src/jobs/publish-changelog";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const list = { limit: 20, offset: 0 };

describe("changelog queries are served by indexes", () => {
  it("GET /v1/changelog: the page and its total, with or without a category", async () => {
    for (const query of [list, { ...list, category: "fixed" as const }]) {
      const { page, total } = changelogQueries(db(), "acc_X", query);
      const plan = await planOf(page);
      expectIndexed(plan, "changelog_entries");
      expect(plan.join("\n")).toContain("changelog_account_created");
      expectIndexed(await planOf(total), "changelog_entries");
    }
  });

  it("GET /v1/changelog?status=: found by index (a workspace's entries of one status are few to sort)", async () => {
    const { page, total } = changelogQueries(db(), "acc_X", { ...list, status: "draft" });
    expect((await planOf(page)).join("\n")).toMatch(/SEARCH changelog_entries USING (COVERING )?INDEX/);
    expectIndexed(await planOf(total), "changelog_entries");
  });

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
