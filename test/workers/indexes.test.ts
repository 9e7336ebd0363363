import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { listConnections } from "../../src/features/connections/connections.repo";
import { emailQueries, scheduledQueries } from "../../src/features/emails/emails.repo";
import { listKeys } from "../../src/features/keys/keys.repo";
import { requestLogQueries } from "../../src/features/request-logs/request-logs.repo";
import { suppressionQueries } from "../../src/features/suppressions/suppressions.repo";
import { db, logsDb } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

describe("list queries are served by indexes", () => {
  it("GET /v1/keys", async () => {
    expectIndexed(await planOf(listKeys(db(), "acc_X")), "api_keys");
  });

  it.each([
    ["no filter", {}],
    ["status", { status: 404 }],
    ["key_id", { keyId: "key_X" }],
  ])("GET /v1/accounts/{id}/request-logs with %s", async (_name, filter) => {
    const { page, total } = requestLogQueries(logsDb(), { accountId: "acc_X", ...filter }, 50, 0);
    expectIndexed(await planOf(page, env.LOGS), "request_logs");
    expectIndexed(await planOf(total, env.LOGS), "request_logs");
  });

  it("GET /v1/connections", async () => {
    expectIndexed(await planOf(listConnections(db(), "acc_X")), "connections");
  });

  it.each([
    ["no filter", {}, "emails"],
    ["status", { status: "sent" as const }, "emails"],
    ["to", { to: "a@example.com" }, "email_recipients"],
    ["tag name", { tag: { name: "kind" } }, "email_tags"],
    ["tag name:value", { tag: { name: "kind", value: "receipt" } }, "email_tags"],
  ])("GET /v1/emails with %s", async (_name, filter, table) => {
    const { page, total } = emailQueries(db(), { accountId: "acc_X", ...filter }, 50, 0);
    expectIndexed(await planOf(page), table);
    expectIndexed(await planOf(total), table);
  });

  it("GET /v1/emails/scheduled", async () => {
    const { page, total } = scheduledQueries(db(), "acc_X", 50, 0);
    expectIndexed(await planOf(page), "emails");
    expectIndexed(await planOf(total), "emails");
  });

  it.each([
    ["no filter", undefined],
    ["email", "a@example.com"],
  ])("GET /v1/emails/suppressions with %s", async (_name, email) => {
    const { page, total } = suppressionQueries(db(), "acc_X", email, 50, 0);
    expectIndexed(await planOf(page), "suppressions");
    expectIndexed(await planOf(total), "suppressions");
  });
});
