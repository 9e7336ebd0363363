import { describe, expect, it } from "vitest";
import { dueSlaTicketsQuery } from "../../src/features/sla/sla-sweep.repo";
import { ticketQueries } from "../../src/features/tickets/tickets.repo";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("the SLA's queries are served by indexes", () => {
  it.each([
    ["sla_breached", { slaBreached: true }, "tickets_account_sla_breached_created"],
    ["sla_due_before", { slaDueBefore: 1 }, "tickets_account_sla_due"],
  ])("GET /v1/tickets with %s", async (_name, filter, index) => {
    const { page, total } = ticketQueries(db(), { accountId: "acc_X", ...filter }, 50, 0);
    const plan = await planOf(page);
    expectIndexed(plan, "tickets");
    expect(plan.join("\n")).toContain(index);
    expect((await planOf(total)).join("\n")).toContain(index);
  });

  it("the minute's sweep finds due tickets on the partial index of next moments", async () => {
    const plan = await planOf(dueSlaTicketsQuery(db(), 1, 100));
    expectIndexed(plan, "tickets");
    expect(plan.join("\n")).toContain("tickets_sla_next");
  });
});
