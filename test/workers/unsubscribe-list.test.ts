import { describe, expect, it } from "vitest";
import { unsubscribedQueries } from "../../src/features/unsubscribe/unsubscribe.repo";
import { addKey, callJson, db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { oneClick, pageButton, seedCampaign, seedCustomer, tokenFor } from "./unsubscribe-helpers";

type Unsubscribed = {
  customer_id: string;
  email: string;
  campaign_id: string | null;
  method: string;
  unsubscribed_at: string;
};
type List = { unsubscribed: Unsubscribed[]; pagination: { total: number; limit: number; offset: number } };

const list = (token: string, query = "") =>
  callJson<List>("GET", `/v1/campaigns/unsubscribed${query}`, { token });

const pause = () => new Promise((resolve) => setTimeout(resolve, 3));

describe("GET /v1/campaigns/unsubscribed", () => {
  it("lists who and how, newest first, limit 50 by default, with a read key", async () => {
    const ws = await seedWorkspace();
    const campaignId = await seedCampaign(ws.accountId);
    const byApi = await seedCustomer(ws.token, "api@example.com");
    const byClick = await seedCustomer(ws.token, "click@example.com");
    const byPage = await seedCustomer(ws.token, "page@example.com");
    await seedCustomer(ws.token, "stays@example.com");

    await callJson("PATCH", `/v1/customers/${byApi}`, { token: ws.token, body: { unsubscribed: true } });
    await pause();
    expect((await oneClick(await tokenFor(byClick, campaignId))).status).toBe(200);
    await pause();
    expect((await pageButton(await tokenFor(byPage, campaignId))).status).toBe(200);

    const reader = await addKey(ws.accountId, "read");
    const { status, body } = await list(reader.token);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ total: 3, limit: 50, offset: 0 });
    expect(body.unsubscribed.map(({ unsubscribed_at: _, ...rest }) => rest)).toEqual([
      { customer_id: byPage, email: "page@example.com", campaign_id: campaignId, method: "link" },
      { customer_id: byClick, email: "click@example.com", campaign_id: campaignId, method: "one_click" },
      { customer_id: byApi, email: "api@example.com", campaign_id: null, method: "api" },
    ]);
    for (const row of body.unsubscribed) expect(row.unsubscribed_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);

    const page = await list(ws.token, "?limit=1&offset=1");
    expect(page.body.pagination).toEqual({ total: 3, limit: 1, offset: 1 });
    expect(page.body.unsubscribed.map((row) => row.customer_id)).toEqual([byClick]);
    expect((await list(ws.token, "?limit=101")).status).toBe(400);
  });

  it("a customer subscribed again leaves the list", async () => {
    const ws = await seedWorkspace();
    const id = await seedCustomer(ws.token, "back@example.com");
    await callJson("PATCH", `/v1/customers/${id}`, { token: ws.token, body: { unsubscribed: true } });
    expect((await list(ws.token)).body.pagination.total).toBe(1);
    await callJson("PATCH", `/v1/customers/${id}`, { token: ws.token, body: { unsubscribed: false } });
    expect((await list(ws.token)).body).toEqual({
      unsubscribed: [],
      pagination: { total: 0, limit: 50, offset: 0 },
    });
  });

  it("shows only the calling workspace's customers", async () => {
    const mine = await seedWorkspace();
    const theirs = await seedWorkspace();
    const id = await seedCustomer(theirs.token, "theirs@example.com");
    expect((await oneClick(await tokenFor(id, await seedCampaign(theirs.accountId)))).status).toBe(200);
    expect((await list(mine.token)).body.pagination.total).toBe(0);
    expect((await list(theirs.token)).body.unsubscribed.map((row) => row.customer_id)).toEqual([id]);
  });

  it("needs an API key", async () => {
    expect((await callJson("GET", "/v1/campaigns/unsubscribed")).status).toBe(401);
  });

  it("is served by indexes: the page and its total", async () => {
    const { page, total } = unsubscribedQueries(db(), "acc_X", 50, 0);
    const plan = await planOf(page);
    expectIndexed(plan, "unsubscribes");
    expectIndexed(plan, "customers");
    expectIndexed(await planOf(total), "unsubscribes");
  });

  it("is in the API's OpenAPI document, and the /u pages in the pages' one", async () => {
    type Doc = { paths: Record<string, Record<string, { "x-permission": string }>> };
    const { body } = await callJson<Doc>("GET", "/v1/openapi.json");
    expect(body.paths["/v1/campaigns/unsubscribed"]?.get?.["x-permission"]).toBe("read");
    const pages = (await callJson<Doc>("GET", "/_ops/openapi.json")).body;
    expect(Object.keys(pages.paths["/u/{token}"] ?? {}).sort()).toEqual(["get", "post"]);
    expect(pages.paths["/u/{token}"]?.post?.["x-permission"]).toBe("public");
  });
});
