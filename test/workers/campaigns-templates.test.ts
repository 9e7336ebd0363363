import { describe, expect, it } from "vitest";
import { pinnedVersionQuery, unfillableQuery } from "../../src/features/campaigns/campaign-template";
import {
  act,
  type Campaign,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  recipientsOf,
} from "./campaigns-helpers";
import { dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, db, eventually, seedWorkspace, shardD1Of } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { createTemplate } from "./templates-helpers";

type Errored = { code?: string; details?: Array<{ path: string; message: string }>; missing?: string[] };

const NEWS = {
  name: "News",
  alias: "news",
  html: '<p>Hi {{FIRST_NAME}} of {{COMPANY}} in {{CITY}} ({{PLAN}}, {{GROUP_NAME}})</p><a href="{{{unsubscribe_url}}}">Unsubscribe</a>',
  text: "Hi {{FIRST_NAME}}, plan {{PLAN}}",
  variables: [
    { key: "FIRST_NAME", type: "string" },
    { key: "COMPANY", type: "string" },
    { key: "CITY", type: "string" },
    { key: "PLAN", type: "string", fallback_value: "free" },
    { key: "GROUP_NAME", type: "string" },
    { key: "unsubscribe_url", type: "string" },
  ],
};

const withTemplate = (id: string, variables: Record<string, unknown> = { COMPANY: "Acme" }) => ({
  html: undefined,
  template: { id, variables },
});

async function addCustomer(token: string, email: string, name: string | null, metadata: object) {
  const created = await callJson("POST", "/v1/customers", {
    token,
    body: { email, ...(name ? { name } : {}), metadata },
  });
  expect(created.status).toBe(201);
}

async function emailRows(campaignId: string) {
  const rows = await shardD1Of()
    .prepare(
      "SELECT to_list AS [to], subject, html, text, template_id, template_version_id FROM emails WHERE campaign_id = ? ORDER BY to_list",
    )
    .bind(campaignId)
    .all<{
      to: string;
      subject: string;
      html: string;
      text: string | null;
      template_id: string;
      template_version_id: string;
    }>();
  return rows.results;
}

const finished = (token: string, id: string) =>
  eventually(async () => {
    const c = await campaignOf(token, id);
    return c.status === "sent" ? c : null;
  });

const currentVersion = async (token: string, id: string) =>
  (await callJson<{ current_version_id: string }>("GET", `/v1/templates/${id}`, { token })).body
    .current_version_id;

describe("campaigns with a template", () => {
  it("refuses a template with a body of its own, another workspace's template, and bad static values", async () => {
    const ws = await campaignWorkspace([{ email: "a@example.org" }]);
    const other = await seedWorkspace();
    const foreign = await createTemplate(other.token, { ...NEWS, alias: "theirs" }, true);
    const mine = await createTemplate(ws.token, NEWS, true);
    const create = (body: Record<string, unknown>) =>
      callJson<Errored>("POST", "/v1/campaigns", {
        token: ws.token,
        body: {
          name: "n",
          from: `News <news@${ws.domain}>`,
          subject: "s",
          contact_group_ids: [ws.groupId],
          ...body,
        },
      });

    expect((await create({ html: "<p>x</p>", template: { id: mine } })).status).toBe(400);
    expect((await create({ template: { id: foreign } })).status).toBe(404);
    expect((await create({ template: { id: "theirs" } })).status).toBe(404);
    const bad = await create({
      template: { id: "news", variables: { COLOR: "red", COMPANY: 7, unsubscribe_url: "https://x" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("template_variables_invalid");
    expect(bad.body.details?.map((d) => d.path).sort()).toEqual([
      "body.template.variables.COLOR",
      "body.template.variables.COMPANY",
      "body.template.variables.unsubscribe_url",
    ]);

    // The alias is resolved to the id; an edit checks again.
    const campaign = await createCampaign(ws, withTemplate("news"));
    expect((campaign as Campaign & { template: unknown }).template).toEqual({
      id: mine,
      version_id: null,
      variables: { COMPANY: "Acme" },
    });
    expect(campaign.stats.missing_variables).toBe(0);
    const edit = await callJson<Errored>("PATCH", `/v1/campaigns/${campaign.id}`, {
      token: ws.token,
      body: { template: { id: mine, variables: { NOPE: "x" } } },
    });
    expect(edit.status).toBe(422);
    expect(edit.body.details?.[0]?.path).toBe("body.template.variables.NOPE");
  });

  it("frames a template in its layout's published version, pinned at send; the layout's unsubscribe link counts", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada Lovelace" }]);
    const layout = await createTemplate(
      ws.token,
      {
        name: "Frame",
        type: "layout",
        html: '<div class="frame">{{{@content}}}<footer>{{ADDRESS}} <a href="{{{unsubscribe_url}}}">Unsubscribe</a></footer></div>',
        text: "{{{@content}}}\n-- {{ADDRESS}}\nUnsubscribe: {{{unsubscribe_url}}}",
        variables: [
          { key: "ADDRESS", type: "string", fallback_value: "1 Main St" },
          { key: "unsubscribe_url", type: "string" },
        ],
      },
      false,
    );
    const framed = await createTemplate(ws.token, {
      name: "Framed",
      html: "<p>Hi {{FIRST_NAME}}</p>",
      text: "Hi {{FIRST_NAME}}",
      variables: [{ key: "FIRST_NAME", type: "string" }],
      layout_id: layout,
    });
    const campaign = await createCampaign(ws, withTemplate(framed, {}));
    // Neither published yet: the layout first, then the template.
    const early = await act(ws.token, campaign.id, "send");
    expect(early.status).toBe(422);
    expect((await callJson("POST", `/v1/templates/${layout}/publish`, { token: ws.token })).status).toBe(200);
    expect((await callJson("POST", `/v1/templates/${framed}/publish`, { token: ws.token })).status).toBe(200);
    const layoutVersion = await currentVersion(ws.token, layout);
    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    await finished(ws.token, campaign.id);
    const [row] = (
      await shardD1Of()
        .prepare(
          "SELECT html, text, template_layout_id, template_layout_version_id FROM emails WHERE campaign_id = ?",
        )
        .bind(campaign.id)
        .all<{ html: string; text: string; template_layout_id: string; template_layout_version_id: string }>()
    ).results;
    expect(row?.html).toMatch(
      /^<div class="frame"><p>Hi Ada<\/p><footer>1 Main St <a href="https?:\/\/[^"]+\/u\/[^"]+">Unsubscribe<\/a><\/footer><\/div>$/,
    );
    // The layout's text carries the link: nothing appended.
    expect(row?.text).toMatch(/^Hi Ada\n-- 1 Main St\nUnsubscribe: https?:\/\/\S+\/u\/\S+$/);
    expect([row?.template_layout_id, row?.template_layout_version_id]).toEqual([layout, layoutVersion]);
  });

  it("keeps its template when saved with an empty html and text, as the dashboard's editor posts them", async () => {
    const ws = await campaignWorkspace([{ email: "a@example.org" }]);
    await createTemplate(ws.token, NEWS, true);
    const campaign = await createCampaign(ws, withTemplate("news"));
    const owner = await signIn(ws.accountId, "owner");
    const saved = await dashboardPost(`/dashboard/campaigns/${campaign.id}`, owner, {
      name: "Renamed",
      from: `News <news@${ws.domain}>`,
      reply_to: "",
      subject: "s",
      html: "",
      text: "",
    });
    expect(saved.status).toBe(303);
    const after = (await campaignOf(ws.token, campaign.id)) as Campaign & { template: { id: string } | null };
    expect(after.name).toBe("Renamed");
    expect(after.template?.id).toBe((campaign as Campaign & { template: { id: string } }).template.id);
    // The API alike: null html and text are no body of its own; a real one replaces the template.
    const nulls = await callJson("PATCH", `/v1/campaigns/${campaign.id}`, {
      token: ws.token,
      body: { html: null, text: null },
    });
    expect((nulls.body as { template: unknown }).template).not.toBeNull();
    const own = await callJson("PATCH", `/v1/campaigns/${campaign.id}`, {
      token: ws.token,
      body: { html: '<p>Own</p><a href="{{unsubscribe_url}}">x</a>' },
    });
    expect((own.body as { template: unknown }).template).toBeNull();
  });

  it("refuses to send or schedule an unpublished template, one without the link, or a variable nothing fills", async () => {
    const ws = await campaignWorkspace([{ email: "a@example.org", name: "Ann" }]);
    const draft = await createTemplate(ws.token, { ...NEWS, alias: "draft" });
    const unpublished = await createCampaign(ws, withTemplate(draft));
    const refused = await act(ws.token, unpublished.id, "send");
    expect(refused.status).toBe(422);
    expect((refused.body as Errored).code).toBe("template_not_published");

    const noLink = await createTemplate(
      ws.token,
      {
        ...NEWS,
        alias: "nolink",
        html: "<p>{{FIRST_NAME}}</p>",
        text: null,
        variables: [{ key: "FIRST_NAME", type: "string" }],
      },
      true,
    );
    const linkless = await createCampaign(ws, withTemplate(noLink, {}));
    const notReady = await act(ws.token, linkless.id, "send");
    expect(notReady.status).toBe(400);
    expect(notReady.body.missing).toEqual(["the template's html does not contain {{unsubscribe_url}}"]);

    // CITY has no fallback, the campaign gives none and no member's metadata has it.
    const news = await createTemplate(ws.token, NEWS, true);
    const unfillable = await createCampaign(ws, withTemplate(news));
    for (const body of [undefined, { scheduled_at: new Date(Date.now() + 3_600_000).toISOString() }]) {
      const answer = await act(ws.token, unfillable.id, "send", body);
      expect(answer.status).toBe(422);
      expect((answer.body as Errored).details?.map((d) => d.path)).toEqual(["template.variables.CITY"]);
    }
    expect((await campaignOf(ws.token, unfillable.id)).status).toBe("draft");
  });

  it("fills each recipient from the campaign, the contact, the group and metadata; skips whoever lacks a value", async () => {
    const ws = await campaignWorkspace([]);
    await addCustomer(ws.token, "ada@example.org", "Ada <b>Lovelace</b>", { CITY: "London", PLAN: "pro" });
    await addCustomer(ws.token, "bob@example.org", null, { CITY: "Paris" });
    await addCustomer(ws.token, "cat@example.org", "Cat", { CITY: 12 });
    await addCustomer(ws.token, "dan@example.org", "Dan", { CITY: "Oslo" });
    await callJson("POST", `/v1/contact-groups/${ws.groupId}/members`, {
      token: ws.token,
      body: { members: ["ada", "bob", "cat"].map((n) => ({ email: `${n}@example.org` })) },
    });
    // Dan is only in the campaign's second group: his group_name is that one's.
    const vip = await callJson<{ id: string }>("POST", "/v1/contact-groups", {
      token: ws.token,
      body: { name: "VIP" },
    });
    await callJson("POST", `/v1/contact-groups/${vip.body.id}/members`, {
      token: ws.token,
      body: { members: [{ email: "dan@example.org" }] },
    });
    const templateId = await createTemplate(ws.token, NEWS, true);
    const version = await currentVersion(ws.token, templateId);
    const campaign = await createCampaign(ws, {
      ...withTemplate(templateId),
      contact_group_ids: [ws.groupId, vip.body.id],
    });
    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    const sent = await finished(ws.token, campaign.id);
    expect((sent as Campaign & { template: { version_id: string } }).template.version_id).toBe(version);
    expect(sent.stats).toMatchObject({ recipients: 2, sent: 2, missing_variables: 2 });

    expect((await recipientsOf(campaign.id)).map((r) => [r.email, r.state, r.detail])).toEqual([
      ["ada@example.org", "sent", null],
      ["bob@example.org", "skipped", "missing_variables: FIRST_NAME"],
      // A number where the template wants a string is no value.
      ["cat@example.org", "skipped", "missing_variables: CITY"],
      ["dan@example.org", "sent", null],
    ]);
    const emails = await emailRows(campaign.id);
    expect(emails.map((e) => e.to)).toEqual(['["ada@example.org"]', '["dan@example.org"]']);
    const [ada, dan] = emails;
    expect(ada?.html).toContain("<p>Hi Ada of Acme in London (pro, Newsletter)</p>");
    expect(dan?.html).toContain("<p>Hi Dan of Acme in Oslo (free, VIP)</p>");
    expect(ada?.text).toMatch(/^Hi Ada, plan pro\n\nUnsubscribe: https?:\/\/\S+\/u\/\S+\n$/);
    expect(ada?.html).toMatch(/href="https?:\/\/[^"]+\/u\/[^"]+"/);
    for (const email of emails) {
      expect(email.subject).not.toContain("{{");
      expect(email.html).not.toContain("{{");
      expect(email.text ?? "").not.toContain("{{");
      expect([email.template_id, email.template_version_id]).toEqual([templateId, version]);
    }
  });

  it("sends every recipient the version pinned when scheduled, though the template is republished", async () => {
    const ws = await campaignWorkspace(
      Array.from({ length: 150 }, (_, i) => ({
        email: `p${String(i).padStart(3, "0")}@example.org`,
        name: "Pat",
      })),
    );
    const templateId = await createTemplate(
      ws.token,
      {
        ...NEWS,
        alias: "pinned",
        html: '<p>v1 {{FIRST_NAME}}</p><a href="{{unsubscribe_url}}">x</a>',
        text: null,
        variables: [
          { key: "FIRST_NAME", type: "string" },
          { key: "unsubscribe_url", type: "string" },
        ],
      },
      true,
    );
    const v1 = await currentVersion(ws.token, templateId);
    const campaign = await createCampaign(ws, withTemplate(templateId, {}));
    const at = new Date(Date.now() + 3_600_000).toISOString();
    expect((await act(ws.token, campaign.id, "send", { scheduled_at: at })).status).toBe(200);

    await callJson("PATCH", `/v1/templates/${templateId}`, {
      token: ws.token,
      body: { html: '<p>v2 {{FIRST_NAME}}</p><a href="{{unsubscribe_url}}">x</a>' },
    });
    expect((await callJson("POST", `/v1/templates/${templateId}/publish`, { token: ws.token })).status).toBe(
      200,
    );
    expect(await currentVersion(ws.token, templateId)).not.toBe(v1);

    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    await finished(ws.token, campaign.id);
    const emails = await emailRows(campaign.id);
    expect(emails).toHaveLength(150);
    for (const email of emails) {
      expect(email.template_version_id).toBe(v1);
      expect(email.html).toContain("<p>v1 Pat</p>");
      expect(email.html).not.toContain("{{");
    }
  });

  it("pins the published version when sent: a republish mid-send changes no recipient's email", async () => {
    const ws = await campaignWorkspace(
      Array.from({ length: 250 }, (_, i) => ({
        email: `q${String(i).padStart(3, "0")}@example.org`,
        name: "Quinn",
      })),
    );
    const body = (mark: string) => `<p>${mark} {{FIRST_NAME}}</p><a href="{{{unsubscribe_url}}}">x</a>`;
    const templateId = await createTemplate(
      ws.token,
      {
        ...NEWS,
        alias: "midsend",
        html: body("v1"),
        text: null,
        variables: [
          { key: "FIRST_NAME", type: "string" },
          { key: "unsubscribe_url", type: "string" },
        ],
      },
      true,
    );
    const v1 = await currentVersion(ws.token, templateId);
    const campaign = await createCampaign(ws, withTemplate(templateId, {}));
    const started = await act(ws.token, campaign.id, "send");
    expect((started.body as Campaign & { template: { version_id: string } }).template.version_id).toBe(v1);
    // Three batches of 100: republished while they are sent.
    await callJson("PATCH", `/v1/templates/${templateId}`, { token: ws.token, body: { html: body("v2") } });
    await callJson("POST", `/v1/templates/${templateId}/publish`, { token: ws.token });
    await finished(ws.token, campaign.id);
    const emails = await emailRows(campaign.id);
    expect(emails).toHaveLength(250);
    expect(new Set(emails.map((e) => e.template_version_id))).toEqual(new Set([v1]));
    for (const email of emails) expect(email.html).toContain("<p>v1 Quinn</p>");
  });

  it("sends a test through the template as for that customer, or names what it lacks", async () => {
    const ws = await campaignWorkspace([]);
    await addCustomer(ws.token, "me@example.org", "Mia Wong", { CITY: "Rome" });
    await callJson("POST", `/v1/contact-groups/${ws.groupId}/members`, {
      token: ws.token,
      body: { members: [{ email: "me@example.org" }] },
    });
    const templateId = await createTemplate(ws.token, NEWS, true);
    const campaign = await createCampaign(ws, withTemplate(templateId));
    const test = await act(ws.token, campaign.id, "test", { to: "me@example.org" });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    const row = await shardD1Of()
      .prepare("SELECT subject, html, template_version_id FROM emails WHERE id = ?")
      .bind((test.body as unknown as { email_id: string }).email_id)
      .first<{ subject: string; html: string; template_version_id: string }>();
    expect(row?.html).toContain("<p>Hi Mia of Acme in Rome (free, Newsletter)</p>");
    expect(row?.html).not.toContain("{{");
    const stranger = await act(ws.token, campaign.id, "test", { to: "nobody@example.org" });
    expect(stranger.status).toBe(422);
    expect((stranger.body as Errored).details?.map((d) => d.path)).toEqual([
      "template.variables.FIRST_NAME",
      "template.variables.CITY",
      "template.variables.GROUP_NAME",
    ]);
  });

  it("reads the pinned version and checks members' metadata through indexes", async () => {
    expectIndexed(await planOf(pinnedVersionQuery(db(), "cmp_X")), "template_versions");
    const plan = await planOf(
      unfillableQuery({ accountId: "acc_X", contactGroupIds: '["grp_A","grp_B"]' }, [
        { key: "CITY", type: "string" },
      ]),
    );
    expectIndexed(plan, "contact_group_members");
    expectIndexed(plan, "customers");
  });
});
