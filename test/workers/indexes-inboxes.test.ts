import { describe, it } from "vitest";
import { inboxQueries } from "../../src/features/inboxes/inboxes.repo";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("inbox list queries are served by indexes", () => {
  it("GET /v1/inboxes", async () => {
    const { page, total } = inboxQueries(db(), "acc_X", 50, 0);
    expectIndexed(await planOf(page), "inboxes");
    expectIndexed(await planOf(total), "inboxes");
  });
});
