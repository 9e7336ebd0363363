import { describe, it } from "vitest";
import { customerQueries } from "../../src/features/customers/customers.repo";
import { tagQuery } from "../../src/features/tags/tags.repo";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("customer and tag list queries are served by indexes", () => {
  it.each([
    ["no filter", {}],
    ["email", { email: "a@example.com" }],
  ])("GET /v1/customers with %s", async (_name, filter) => {
    const { page, total } = customerQueries(db(), { accountId: "acc_X", ...filter }, 50, 0);
    expectIndexed(await planOf(page), "customers");
    expectIndexed(await planOf(total), "customers");
  });

  it.each([
    ["no filter", undefined],
    ["inbox_id", "inb_X"],
  ])("GET /v1/tags with %s", async (_name, inboxId) => {
    expectIndexed(await planOf(tagQuery(db(), "acc_X", inboxId)), "tags");
  });
});
