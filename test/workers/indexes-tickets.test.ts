import { describe, it } from "vitest";
import { messageQueries } from "../../src/features/messages/messages.repo";
import { ticketQueries } from "../../src/features/tickets/tickets.repo";
import { db } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("ticket and message lists are served by indexes", () => {
  it.each([
    ["no filter", {}],
    ["status", { status: "open" as const }],
    ["priority", { priority: "high" as const }],
    ["inbox_id", { inboxId: "inb_X" }],
    ["customer_id", { customerId: "cus_X" }],
    ["assignee_id", { assigneeId: "usr_X" }],
    ["tag", { tag: "vip" }],
    ["updated_after", { updatedAfter: 1 }],
  ])("GET /v1/tickets with %s", async (_name, filter) => {
    const { page, total } = ticketQueries(db(), { accountId: "acc_X", ...filter }, 50, 0);
    expectIndexed(await planOf(page), "tickets");
    // Unfiltered, the total is one row of the trigger-kept count; the common filters read their counter row.
    const counted = ["status", "priority", "inboxId", "assigneeId", "tag"];
    const keys = Object.keys(filter);
    const counter =
      keys.length === 0
        ? "ticket_counts"
        : keys.every((k) => counted.includes(k))
          ? "ticket_facet_counts"
          : "tickets";
    expectIndexed(await planOf(total), counter);
  });

  it.each([
    ["no filter", undefined],
    ["created_after", 1],
  ])("GET /v1/tickets/{id}/messages with %s", async (_name, after) => {
    const { page, total } = messageQueries(db(), "acc_X", "tkv_X", after, 50, 0);
    expectIndexed(await planOf(page), "messages");
    expectIndexed(await planOf(total), "messages");
  });
});
