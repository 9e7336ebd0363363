import { describe, expect, it } from "vitest";
import { campaignOf, campaignWorkspace, createCampaign, HTML } from "./campaigns-helpers";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, eventually } from "./helpers";

const editorFields = (ws: { domain: string; groupId: string }) => ({
  name: "Winter news",
  from: `Acme <news@${ws.domain}>`,
  reply_to: "",
  subject: "Hello {{name|there}}",
  html: HTML,
  text: "",
  contact_group_ids: ws.groupId,
});

describe("dashboard: campaigns", () => {
  it("lists campaigns with their status and stats, filtered by status, for everyone signed in", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    const draft = await createCampaign(ws, { name: "Draft <b>one</b>" });
    const agent = await signIn(ws.accountId, "agent");
    const page = await (await dashboardGet("/dashboard/campaigns", agent)).text();
    expect(page).toContain("Draft &lt;b&gt;one&lt;/b&gt;");
    expect(page).toContain(`href="/dashboard/campaigns/${draft.id}"`);
    expect(page).not.toContain("New campaign");
    const sent = await (await dashboardGet("/dashboard/campaigns?status=sent", agent)).text();
    expect(sent).not.toContain(draft.id);
    expect((await dashboardGet("/dashboard/campaigns/new", agent)).status).toBe(403);
  });

  it("creates a draft through the API's rules, shows refusals beside the form, and saves edits", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    const owner = await signIn(ws.accountId, "owner");
    const refused = await dashboardPost("/dashboard/campaigns", owner, {
      ...editorFields(ws),
      from: "not an address",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('value="not an address"');

    const created = await dashboardPost("/dashboard/campaigns", owner, editorFields(ws));
    expect(created.status).toBe(303);
    const id = /\/dashboard\/campaigns\/(cmp_[0-9A-Z]+)\?done=created/.exec(
      created.headers.get("Location") ?? "",
    )?.[1];
    expect(id).toBeDefined();
    expect(await campaignOf(ws.token, id as string)).toMatchObject({
      name: "Winter news",
      status: "draft",
      contact_group_ids: [ws.groupId],
      reply_to: null,
    });

    const saved = await dashboardPost(`/dashboard/campaigns/${id}`, owner, {
      ...editorFields(ws),
      name: "Winter news 2",
    });
    expect(saved.status).toBe(303);
    expect((await campaignOf(ws.token, id as string)).name).toBe("Winter news 2");
  });

  it("sends, pauses, resumes and shows live stats; an illegal move shows the API's reason", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.org", name: "Ada" },
      { email: "bob@example.org" },
    ]);
    const campaign = await createCampaign(ws);
    const owner = await signIn(ws.accountId, "admin");
    const page = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(page).toContain(`action="/dashboard/campaigns/${campaign.id}/send"`);
    expect(page).not.toContain('hx-trigger="every 5s"');

    const illegal = await dashboardPost(`/dashboard/campaigns/${campaign.id}/pause`, owner);
    expect(illegal.status).toBe(400);
    expect(await illegal.text()).toContain('role="alert"');

    const send = await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, owner, { scheduled_at: "" });
    expect(send.status).toBe(303);
    expect(send.headers.get("Location")).toBe(`/dashboard/campaigns/${campaign.id}?done=sent`);
    const done = await eventually(async () => {
      const c = await campaignOf(ws.token, campaign.id);
      return c.status === "sent" ? c : null;
    });
    expect(done.stats).toMatchObject({ recipients: 2, sent: 2 });
    const stats = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}/stats`, owner)).text();
    expect(stats).toContain('id="campaign-stats"');
    expect(stats).toMatch(/<dt>Sent<\/dt><dd>2<\/dd>/);
  });

  it("schedules at a UTC time, polls while scheduled, and cancels", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws);
    const owner = await signIn(ws.accountId, "owner");
    const at = new Date(Date.now() + 86_400_000).toISOString().slice(0, 16);
    expect(
      (await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, owner, { scheduled_at: at })).status,
    ).toBe(303);
    expect(await campaignOf(ws.token, campaign.id)).toMatchObject({
      status: "scheduled",
      scheduled_at: `${at}:00.000Z`,
    });
    const page = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(page).toContain('hx-trigger="every 5s"');
    expect((await dashboardPost(`/dashboard/campaigns/${campaign.id}/cancel`, owner)).status).toBe(303);
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("cancelled");
  });

  it("previews the HTML with sample values under a sandboxing policy; deletes a draft", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws, { html: `${HTML}<script>alert(1)</script>` });
    const owner = await signIn(ws.accountId, "owner");
    const preview = await dashboardGet(`/dashboard/campaigns/${campaign.id}/preview`, owner);
    expect(preview.headers.get("Content-Security-Policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(await preview.text()).toContain("Hi Ada, news for ada@example.com.");

    const deleted = await dashboardPost(`/dashboard/campaigns/${campaign.id}/delete`, owner);
    expect(deleted.headers.get("Location")).toBe("/dashboard/campaigns?done=deleted");
    expect((await callJson("GET", `/v1/campaigns/${campaign.id}`, { token: ws.token })).status).toBe(404);
  });

  it("keeps other workspaces' campaigns out (404) and agents from acting (403)", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }]);
    const campaign = await createCampaign(ws);
    const other = await campaignWorkspace([{ email: "eve@example.org" }]);
    const stranger = await signIn(other.accountId, "owner");
    expect((await dashboardGet(`/dashboard/campaigns/${campaign.id}`, stranger)).status).toBe(404);
    expect((await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, stranger)).status).toBe(404);
    const agent = await signIn(ws.accountId, "agent");
    expect((await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, agent)).status).toBe(403);
    expect((await campaignOf(ws.token, campaign.id)).status).toBe("draft");
  });
});
