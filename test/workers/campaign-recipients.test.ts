import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { recipientListQueries } from "../../src/features/campaigns/recipient-list";
import { act, campaignOf, campaignWorkspace, createCampaign } from "./campaigns-helpers";
import { call, callJson, db, eventually, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

interface RecipientList {
  data: Array<{
    customer_id: string;
    email: string;
    state: string;
    email_id: string | null;
    detail: string | null;
    created_at: string;
    updated_at: string;
  }>;
  pagination: { limit: number; offset: number; total: number };
}

const listOf = (token: string, id: string, query = "") =>
  callJson<RecipientList>("GET", `/v1/campaigns/${id}/recipients${query}`, { token });

/** Each state's count of rows, and the row count, as the counters must answer them. */
async function countsOf(campaignId: string) {
  const rows = await env.DB_2.prepare(
    "SELECT state, count(*) AS n FROM campaign_recipients WHERE campaign_id = ? GROUP BY state",
  )
    .bind(campaignId)
    .all<{ state: string; n: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.state, r.n]));
}

async function expectTotalsExact(token: string, campaignId: string) {
  const counts = await countsOf(campaignId);
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  expect((await listOf(token, campaignId)).body.pagination.total).toBe(all);
  for (const state of ["pending", "queued", "sent", "suppressed", "failed", "skipped"]) {
    const { body } = await listOf(token, campaignId, `?state=${state}`);
    expect(body.pagination.total, state).toBe(counts[state] ?? 0);
  }
}

describe("GET /v1/campaigns/{id}/recipients", () => {
  it("lists a sent campaign's recipients by customer id with exact totals per state, also after a customer is deleted", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.org" },
      { email: "bob@example.org" },
      { email: "carol@example.org" },
      { email: "dan@example.org" },
    ]);
    const customers = await callJson<{ data: Array<{ id: string; email: string }> }>("GET", "/v1/customers", {
      token: ws.token,
    });
    const idOf = (email: string) => customers.body.data.find((c) => c.email === email)?.id ?? "";
    await call("PATCH", `/v1/customers/${idOf("carol@example.org")}`, {
      token: ws.token,
      body: { unsubscribed: true },
    });
    await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "dan@example.org" },
    });
    const campaign = await createCampaign(ws);
    expect((await listOf(ws.token, campaign.id)).body).toEqual({
      data: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });

    expect((await act(ws.token, campaign.id, "send")).body.status).toBe("sending");
    await eventually(async () => ((await campaignOf(ws.token, campaign.id)).status === "sent" ? true : null));

    const { status, body } = await listOf(ws.token, campaign.id);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 4 });
    const ids = body.data.map((r) => r.customer_id);
    expect(ids).toEqual([...ids].sort());
    const byEmail = Object.fromEntries(body.data.map((r) => [r.email, r]));
    expect(byEmail["ada@example.org"]).toMatchObject({ state: "sent", detail: null });
    expect(byEmail["ada@example.org"]?.email_id).toMatch(/^eml_/);
    expect(byEmail["carol@example.org"]).toMatchObject({
      state: "skipped",
      detail: "unsubscribed",
      email_id: null,
    });
    expect(byEmail["dan@example.org"]).toMatchObject({
      state: "suppressed",
      detail: "suppressed",
      email_id: null,
    });
    expect(Date.parse(byEmail["ada@example.org"]?.updated_at ?? "")).not.toBeNaN();

    const sent = await listOf(ws.token, campaign.id, "?state=sent&limit=1&offset=1");
    expect(sent.body.pagination).toEqual({ limit: 1, offset: 1, total: 2 });
    expect(sent.body.data.map((r) => r.customer_id)).toEqual(
      body.data
        .filter((r) => r.state === "sent")
        .map((r) => r.customer_id)
        .slice(1),
    );
    await expectTotalsExact(ws.token, campaign.id);

    // The customer's rows go by cascade; the trigger counts them out.
    expect(
      (await call("DELETE", `/v1/customers/${idOf("ada@example.org")}`, { token: ws.token })).status,
    ).toBe(200);
    expect((await listOf(ws.token, campaign.id)).body.pagination.total).toBe(3);
    await expectTotalsExact(ws.token, campaign.id);
  });

  it("is 404 for another workspace's campaign and 400 for a bad state or limit", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws);
    const other = await seedWorkspace();
    expect((await listOf(other.token, campaign.id)).status).toBe(404);
    expect((await listOf(ws.token, "cmp_NOPE")).status).toBe(404);
    for (const query of ["?state=delivered", "?limit=0", "?limit=101", "?offset=-1"]) {
      expect((await listOf(ws.token, campaign.id, query)).status, query).toBe(400);
    }
  });
});

describe("a campaign of 3,000 seeded recipients", () => {
  it("pages through indexes, sums counters for its total, and the counters follow updates and the campaign's cascade", async () => {
    const ws = await campaignWorkspace([]);
    const campaign = await createCampaign(ws);
    const now = Date.now();
    const states = "json_array('pending','queued','sent','suppressed','failed','skipped') ->> (i % 6)";
    await env.DB_2.batch([
      env.DB_2.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999)
         INSERT INTO customers (id, account_id, email, created_at, updated_at)
         SELECT printf('cus_rcp%s%05d', ?3, i), ?1, printf('r%05d@example.com', i), ?2, ?2 FROM n`,
      ).bind(ws.accountId, now, campaign.id),
      env.DB_2.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999)
         INSERT INTO campaign_recipients (campaign_id, customer_id, account_id, email, state, created_at, updated_at)
         SELECT ?3, printf('cus_rcp%s%05d', ?3, i), ?1, printf('r%05d@example.com', i), ${states}, ?2, ?2 FROM n`,
      ).bind(ws.accountId, now, campaign.id),
    ]);
    await expectTotalsExact(ws.token, campaign.id);
    expect((await listOf(ws.token, campaign.id, "?state=failed")).body.pagination.total).toBe(500);

    // With the table's statistics too, as a production database gathers them.
    await env.DB_2.prepare("ANALYZE campaign_recipients").run();
    for (const [state, index] of [
      [undefined, "sqlite_autoindex_campaign_recipients_1 (campaign_id=?)"],
      ["sent", "campaign_recipients_campaign_state (campaign_id=? AND state=?)"],
    ] as const) {
      const { page, total } = recipientListQueries(db(), ws.accountId, campaign.id, state, 50, 0);
      const plan = await planOf(page);
      expectIndexed(plan, "campaign_recipients");
      expect(plan.join("\n")).toContain(`SEARCH campaign_recipients USING INDEX ${index}`);
      expectIndexed(await planOf(total), "campaign_recipient_counts");
      expectIndexed(await planOf(total), "campaigns");
    }

    await env.DB_2.prepare(
      "UPDATE campaign_recipients SET state = 'sent' WHERE campaign_id = ? AND state IN ('pending', 'queued')",
    )
      .bind(campaign.id)
      .run();
    expect((await listOf(ws.token, campaign.id, "?state=sent")).body.pagination.total).toBe(1500);
    await expectTotalsExact(ws.token, campaign.id);

    await env.DB_2.prepare("DELETE FROM campaigns WHERE id = ?").bind(campaign.id).run();
    const left = await env.DB_2.prepare(
      "SELECT count(*) AS n FROM campaign_recipient_counts WHERE campaign_id = ?",
    )
      .bind(campaign.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});
