import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { campaignQueries } from "../../src/features/campaigns/campaigns.repo";
import { deliveredStatements } from "../../src/features/campaigns/progress";
import { pendingBatchQuery } from "../../src/features/campaigns/recipients.repo";
import { claimedIn } from "../../src/features/emails/delivery.repo";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import {
  act,
  type Campaign,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  recipientsOf,
} from "./campaigns-helpers";
import { call, callJson, db, eventually, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

const ZERO = {
  recipients: 0,
  sent: 0,
  suppressed: 0,
  failed: 0,
  opened: 0,
  clicked: 0,
  unsubscribed: 0,
  bounced: 0,
};

describe("campaign CRUD", () => {
  it("creates a draft, gets, lists with { campaigns, pagination } (default 20) and filters by status", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const created = await createCampaign(ws);
    expect(created).toMatchObject({
      id: expect.stringMatching(/^cmp_/),
      status: "draft",
      paused_reason: null,
      scheduled_at: null,
      sent_at: null,
      reply_to: null,
      text: null,
      contact_group_ids: [ws.groupId],
      stats: ZERO,
    });
    expect(await campaignOf(ws.token, created.id)).toEqual(created);
    for (let i = 0; i < 21; i++) await createCampaign(ws, { name: `C${i}` });
    const list = await callJson<{ campaigns: Campaign[]; pagination: unknown }>("GET", "/v1/campaigns", {
      token: ws.token,
    });
    expect(list.body.pagination).toEqual({ total: 22, limit: 20, offset: 0 });
    expect(list.body.campaigns).toHaveLength(20);
    expect(list.body.campaigns[0]?.name).toBe("C20");
    const drafts = await callJson<{ pagination: { total: number } }>("GET", "/v1/campaigns?status=sent", {
      token: ws.token,
    });
    expect(drafts.body.pagination.total).toBe(0);
  });

  it("edits drafts only, refuses unknown groups (404) and deletes drafts only (409)", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const draft = await createCampaign(ws);
    const patched = await callJson<Campaign>("PATCH", `/v1/campaigns/${draft.id}`, {
      token: ws.token,
      body: { subject: "Changed", reply_to: "help@example.org" },
    });
    expect(patched.body).toMatchObject({ subject: "Changed", reply_to: "help@example.org" });
    const other = await campaignWorkspace([]);
    const foreign = await callJson("PATCH", `/v1/campaigns/${draft.id}`, {
      token: ws.token,
      body: { contact_group_ids: [other.groupId] },
    });
    expect(foreign.status).toBe(404);
    const create = await call("POST", "/v1/campaigns", {
      token: ws.token,
      body: { name: "x", from: `a@${ws.domain}`, subject: "s", contact_group_ids: [other.groupId] },
    });
    expect(create.status).toBe(404);

    expect((await act(ws.token, draft.id, "send")).status).toBe(200);
    const edit = await callJson<{ code: string; message: string }>("PATCH", `/v1/campaigns/${draft.id}`, {
      token: ws.token,
      body: { subject: "Too late" },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.code).toBe("invalid_campaign_status");
    expect(edit.body.message).toMatch(/is (sending|sent)/);
    const refused = await callJson<{ code: string }>("DELETE", `/v1/campaigns/${draft.id}`, {
      token: ws.token,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("campaign_not_draft");

    const another = await createCampaign(ws);
    expect((await call("DELETE", `/v1/campaigns/${another.id}`, { token: ws.token })).status).toBe(200);
    expect((await call("GET", `/v1/campaigns/${another.id}`, { token: ws.token })).status).toBe(404);
  });

  it("answers 404 for another workspace's campaign on every route", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws);
    const stranger = await seedWorkspace();
    const token = stranger.token;
    expect((await call("GET", `/v1/campaigns/${campaign.id}`, { token })).status).toBe(404);
    expect((await call("PATCH", `/v1/campaigns/${campaign.id}`, { token, body: { name: "x" } })).status).toBe(
      404,
    );
    expect((await call("DELETE", `/v1/campaigns/${campaign.id}`, { token })).status).toBe(404);
    for (const action of ["send", "pause", "resume", "cancel"])
      expect((await act(token, campaign.id, action)).status).toBe(404);
    expect((await act(token, campaign.id, "test", { to: "x@example.org" })).status).toBe(404);
    const list = await callJson<{ campaigns: unknown[] }>("GET", "/v1/campaigns", { token });
    expect(list.body.campaigns).toEqual([]);
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("draft");
  });

  it("never reads /v1/campaigns/unsubscribed as a campaign id", async () => {
    const ws = await seedWorkspace();
    const res = await callJson<{ code: string }>("GET", "/v1/campaigns/unsubscribed", { token: ws.token });
    // Served by another router (or not at all yet): never this router's 400 for a bad id.
    expect(res.status === 400 && res.body.code === "validation_error").toBe(false);
    const doc = (await (await call("GET", "/v1/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/v1/campaigns/{id}"))).toHaveLength(7);
  });
});

describe("the state machine", () => {
  it("refuses illegal moves with 400 naming the status", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const draft = await createCampaign(ws);
    for (const action of ["pause", "resume", "cancel"]) {
      const res = await act(ws.token, draft.id, action);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_campaign_status", status: "draft" });
      expect(res.body.message).toContain("is draft");
    }
    expect((await act(ws.token, draft.id, "send")).status).toBe(200);
    await eventually(async () => (await campaignOf(ws.token, draft.id)).status === "sent");
    for (const action of ["send", "pause", "resume", "cancel"]) {
      const res = await act(ws.token, draft.id, action);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("is sent");
    }
  });

  it("sends only from a verified domain with {{unsubscribe_url}} in the html, naming what is missing", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const bad = await createCampaign(ws, { from: "news@elsewhere.test", html: "<p>No link</p>" });
    const res = await act(ws.token, bad.id, "send");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "campaign_not_ready" });
    expect(res.body.missing).toEqual([
      "the from domain elsewhere.test is not a verified connection of this workspace",
      "the html does not contain {{unsubscribe_url}}",
    ]);
    expect((await campaignOf(ws.token, bad.id)).status).toBe("draft");
    expect(await recipientsOf(bad.id)).toEqual([]);
  });

  it("schedules, is started by the minute cron when due, and cancels a scheduled campaign", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }, { email: "bob@example.org" }]);
    const campaign = await createCampaign(ws);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await act(ws.token, campaign.id, "send", { scheduled_at: at });
    expect(scheduled.body).toMatchObject({ status: "scheduled", scheduled_at: at });
    expect(await recipientsOf(campaign.id)).toEqual([]);

    const ctx = createExecutionContext();
    const controller = createScheduledController({
      cron: CRON.everyMinute,
      scheduledTime: Date.now() + 3_700_000,
    });
    await worker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);
    const sent = await eventually(async () => {
      const c = await campaignOf(ws.token, campaign.id);
      return c.status === "sent" ? c : null;
    });
    expect(sent.stats).toMatchObject({ recipients: 2, sent: 2 });

    const later = await createCampaign(ws);
    await act(ws.token, later.id, "send", { scheduled_at: at });
    expect((await act(ws.token, later.id, "cancel")).body.status).toBe("cancelled");
    expect((await act(ws.token, later.id, "send")).status).toBe(400);
  });
});

describe("index use", () => {
  it("serves the campaigns list and its total from an index, with and without a status", async () => {
    for (const status of [undefined, "sending" as const]) {
      const { page, total } = campaignQueries(db(), "acc_X", status, 20, 0);
      expectIndexed(await planOf(page), "campaigns");
      expectIndexed(await planOf(total), "campaigns");
    }
  });

  it("takes the next pending recipients from the (campaign, state, customer) index", async () => {
    const plan = await planOf(pendingBatchQuery(db(), "cmp_X"));
    expectIndexed(plan, "campaign_recipients");
    expect(plan.join("\n")).toContain("campaign_recipients_campaign_state");
  });

  it("settles a delivered email's recipient and counters without scanning the recipients", async () => {
    for (const statement of deliveredStatements(claimedIn([{ id: "eml_X", attempts: 1 }]), "sent", 0)) {
      const plan = await planOf(statement);
      expectIndexed(plan, "campaign_recipients");
      expect(plan.join("\n")).not.toMatch(/SCAN (campaign_recipients|campaigns|emails)\b/);
    }
  });
});
