import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, seedWorkspace } from "./helpers";
import { expectPageHeaders } from "./portal-helpers";
import {
  oneClick,
  pageButton,
  seedCampaign,
  seedCustomer,
  subscriptionOf,
  tokenFor,
  unsubscribedCount,
} from "./unsubscribe-helpers";

async function recipient(email = "reader@example.com") {
  const ws = await seedWorkspace();
  const customerId = await seedCustomer(ws.token, email);
  const campaignId = await seedCampaign(ws.accountId);
  const token = await tokenFor(customerId, campaignId);
  return { ws, customerId, campaignId, token };
}

const NOTHING = { customer: { unsubscribed: 0, unsubscribed_at: null }, records: [] };

describe("GET /u/{token}", () => {
  it("shows the address and a button posting to the same URL, and changes nothing", async () => {
    const { ws, customerId, campaignId, token } = await recipient("tom&jerry@example.com");
    const res = await call("GET", `/u/${token}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    const html = await res.text();
    expect(html).toContain("tom&amp;jerry@example.com");
    // The button posts to the link naming the customer's workspace, found at once.
    expect(html).toContain(`<form method="post" action="/u/${token}?w=${ws.accountId}">`);
    expect(html).toContain('name="source" value="page"');
    expect(await subscriptionOf(customerId)).toEqual(NOTHING);
    expect(await unsubscribedCount(campaignId)).toBe(0);
  });

  it("says so, without a button, to an already unsubscribed customer", async () => {
    const { token } = await recipient();
    expect((await oneClick(token)).status).toBe(200);
    const html = await (await call("GET", `/u/${token}`)).text();
    expect(html).toContain("already unsubscribed");
    expect(html).not.toContain("<form");
  });
});

describe("POST /u/{token}", () => {
  it("one-click from a mail provider: no cookie, no Origin → 200, unsubscribed as one_click, counted", async () => {
    const { customerId, campaignId, token } = await recipient();
    const before = Date.now();
    const res = await oneClick(token);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("Set-Cookie")).toBeNull();
    expect(await res.text()).toContain("You are unsubscribed");
    const { customer, records } = await subscriptionOf(customerId);
    expect(customer?.unsubscribed).toBe(1);
    expect(customer?.unsubscribed_at).toBeGreaterThanOrEqual(before);
    expect(records).toEqual([
      { campaign_id: campaignId, method: "one_click", created_at: customer?.unsubscribed_at },
    ]);
    expect(await unsubscribedCount(campaignId)).toBe(1);
  });

  it("takes the one-click body as multipart too, and a post with no body at all", async () => {
    const multipart = await recipient();
    const body = new FormData();
    body.set("List-Unsubscribe", "One-Click");
    const req = new Request(`http://localhost/u/${multipart.token}`, { method: "POST", body });
    expect((await exports.default.fetch(req)).status).toBe(200);
    expect((await subscriptionOf(multipart.customerId)).records[0]?.method).toBe("one_click");

    const bare = await recipient();
    expect((await call("POST", `/u/${bare.token}`)).status).toBe(200);
    expect((await subscriptionOf(bare.customerId)).records[0]?.method).toBe("one_click");
  });

  it("the page's button, even from another origin, records method link", async () => {
    const { customerId, campaignId, token } = await recipient();
    const res = await pageButton(token, {
      Origin: "https://elsewhere.example",
      "Sec-Fetch-Site": "cross-site",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("You are unsubscribed");
    expect((await subscriptionOf(customerId)).records).toMatchObject([
      { campaign_id: campaignId, method: "link" },
    ]);
    expect(await unsubscribedCount(campaignId)).toBe(1);
  });

  it("a tampered or malformed token: 404 page for GET and POST, nothing changes", async () => {
    const { customerId, campaignId, token } = await recipient();
    const tampered = `${token.slice(0, -1)}${token.endsWith("0") ? "1" : "0"}`;
    for (const path of [`/u/${tampered}`, "/u/nonsense", `/u/${token}x`]) {
      for (const method of ["GET", "POST"]) {
        const res = method === "GET" ? await call("GET", path) : await oneClick(path.slice(3));
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
        expect(await res.text()).toContain("Link not found");
      }
    }
    expect(await subscriptionOf(customerId)).toEqual(NOTHING);
    expect(await unsubscribedCount(campaignId)).toBe(0);
  });

  it("a token whose customer was deleted: 404", async () => {
    const { ws, customerId, campaignId, token } = await recipient();
    expect((await call("DELETE", `/v1/customers/${customerId}`, { token: ws.token })).status).toBe(200);
    expect((await call("GET", `/u/${token}`)).status).toBe(404);
    expect((await oneClick(token)).status).toBe(404);
    expect(await unsubscribedCount(campaignId)).toBe(0);
  });

  it("concurrent posts unsubscribe and count once; later posts change nothing", async () => {
    const { customerId, campaignId, token } = await recipient();
    const answers = await Promise.all(Array.from({ length: 8 }, () => oneClick(token)));
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    expect(await unsubscribedCount(campaignId)).toBe(1);
    const first = await subscriptionOf(customerId);
    expect(first.records).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await pageButton(token);
    expect(again.status).toBe(200);
    expect(await subscriptionOf(customerId)).toEqual(first);
    expect(await unsubscribedCount(campaignId)).toBe(1);
  });

  it("a customer unsubscribed through the API keeps method api and counts nothing", async () => {
    const { ws, customerId, campaignId, token } = await recipient();
    await callJson("PATCH", `/v1/customers/${customerId}`, { token: ws.token, body: { unsubscribed: true } });
    expect((await oneClick(token)).status).toBe(200);
    expect((await subscriptionOf(customerId)).records).toMatchObject([{ method: "api", campaign_id: null }]);
    expect(await unsubscribedCount(campaignId)).toBe(0);
  });

  it("tenancy comes from the customer: another workspace's campaign is neither counted nor named", async () => {
    const ws = await seedWorkspace();
    const customerId = await seedCustomer(ws.token, "mine@example.com");
    const foreignCampaign = await seedCampaign((await seedWorkspace()).accountId);
    const res = await oneClick(await tokenFor(customerId, foreignCampaign));
    expect(res.status).toBe(200);
    const { customer, records } = await subscriptionOf(customerId);
    expect(customer?.unsubscribed).toBe(1);
    expect(records).toMatchObject([{ campaign_id: null, method: "one_click" }]);
    expect(await unsubscribedCount(foreignCampaign)).toBe(0);
    const row = await env.DB_2.prepare("SELECT account_id FROM unsubscribes WHERE customer_id = ?")
      .bind(customerId)
      .first<{ account_id: string }>();
    expect(row?.account_id).toBe(ws.accountId);
  });
});
