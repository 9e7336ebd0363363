import { describe, expect, it } from "vitest";
import {
  act,
  type Campaign,
  campaignOf,
  campaignWorkspace,
  createCampaign,
  recipientsOf,
} from "./campaigns-helpers";
import { callJson, eventually, seedWorkspace, shardD1Of } from "./helpers";
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
      body: {
        members: ["ada", "bob", "cat", "dan"].map((n) => ({ email: `${n}@example.org` })),
      },
    });
    const templateId = await createTemplate(ws.token, NEWS, true);
    const version = await currentVersion(ws.token, templateId);
    const campaign = await createCampaign(ws, withTemplate(templateId));
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
    expect(dan?.html).toContain("<p>Hi Dan of Acme in Oslo (free, Newsletter)</p>");
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
});
