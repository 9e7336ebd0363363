import { describe, expect, it } from "vitest";
import { type Campaign, campaignOf, campaignWorkspace, createCampaign, HTML } from "./campaigns-helpers";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { call, callJson, eventually, shardD1Of } from "./helpers";
import { createTemplate } from "./templates-helpers";
import { FRAME } from "./templates-layouts-helpers";

type WithTemplate = Campaign & {
  html: string | null;
  template: { id: string; version_id: string | null; variables: Record<string, unknown> } | null;
};

const NEWS = {
  name: "News <letter>",
  html: '<p>Hi {{FIRST_NAME}} from {{COMPANY}}: {{SEATS}} seats, code {{CODE}}</p><a href="{{{unsubscribe_url}}}">Unsubscribe</a>',
  variables: [
    { key: "FIRST_NAME", type: "string" },
    { key: "COMPANY", type: "string" },
    { key: "SEATS", type: "number", fallback_value: 1 },
    { key: "CODE", type: "string", fallback_value: "none" },
    { key: "unsubscribe_url", type: "string" },
  ],
};

/** A template that frames its content in FRAME and has a variable only metadata fills (CODE). */
const FRAMED = {
  name: "Framed",
  html: "<p>Hi {{FIRST_NAME}}, code {{CODE}}</p>",
  variables: [
    { key: "FIRST_NAME", type: "string" },
    { key: "CODE", type: "string" },
  ],
};

const editorFields = (ws: { domain: string; groupId: string }) => ({
  name: "Winter news",
  from: `Acme <news@${ws.domain}>`,
  reply_to: "",
  subject: "Hello {{name|there}}",
  html: "",
  text: "",
  contact_group_ids: ws.groupId,
  groups_shown: "1",
});

/** A form post with repeated fields (one per static variable row), as the editor sends them. */
const postRows = (path: string, who: SignedIn, fields: Array<[string, string]>) =>
  call("POST", path, {
    rawBody: new URLSearchParams([["_csrf", who.csrf], ...fields]).toString(),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "http://localhost",
      Cookie: who.cookie,
    },
  });

const idOf = (res: Response) =>
  /\/dashboard\/campaigns\/(cmp_[0-9A-Z]+)\?done=created/.exec(res.headers.get("Location") ?? "")?.[1] ?? "";

async function withNews() {
  const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
  const news = await createTemplate(ws.token, NEWS, true);
  return { ws, news, owner: await signIn(ws.accountId, "owner") };
}

describe("dashboard: campaigns that send a template", () => {
  it("offers the published templates (not drafts, not layouts) and creates a template campaign with typed statics", async () => {
    const { ws, news, owner } = await withNews();
    const drafty = await createTemplate(ws.token, { ...NEWS, name: "Drafty" });
    const frame = await createTemplate(ws.token, FRAME, true);
    const page = await (await dashboardGet("/dashboard/campaigns/new", owner)).text();
    expect(page).toContain(`<option value="${news}">News &lt;letter&gt;</option>`);
    expect(page).not.toContain(drafty);
    expect(page).not.toContain(frame);
    expect(page).toMatch(/<input type="radio" name="body" value="template"/);
    expect(page).toContain("unsubscribe_url");
    expect(page).toContain("metadata");

    const created = await postRows("/dashboard/campaigns", owner, [
      ...Object.entries({ ...editorFields(ws), html: HTML }),
      ["body", "template"],
      ["template_id", news],
      ["variable_key", "COMPANY"],
      ["variable_value", "Acme"],
      ["variable_key", "SEATS"],
      ["variable_value", "5"],
      ["variable_key", ""],
      ["variable_value", ""],
    ]);
    expect(created.status).toBe(303);
    const campaign = (await campaignOf(ws.token, idOf(created))) as WithTemplate;
    expect(campaign.html).toBeNull();
    expect(campaign.template).toEqual({
      id: news,
      version_id: null,
      variables: { COMPANY: "Acme", SEATS: 5 },
    });
  });

  it("shows the API's refusals as the form's problems: a 422 naming each value, both bodies, another workspace's template", async () => {
    const { ws, news, owner } = await withNews();
    const fields = { ...editorFields(ws), body: "template", template_id: news };
    const refused = await postRows("/dashboard/campaigns", owner, [
      ...Object.entries(fields),
      ["variable_key", "NOPE"],
      ["variable_value", "x"],
      ["variable_key", "SEATS"],
      ["variable_value", "many"],
    ]);
    expect(refused.status).toBe(400);
    const page = await refused.text();
    expect(page).toContain('role="alert"');
    expect(page).toContain("<code>body.template.variables.NOPE</code> is not a variable of the template");
    expect(page).toContain("<code>body.template.variables.SEATS</code> must be a number");
    expect(page).toContain('value="NOPE"');

    // Without the radio (a form that posts both), the API's own 400.
    const both = await dashboardPost("/dashboard/campaigns", owner, {
      ...editorFields(ws),
      html: HTML,
      template_id: news,
    });
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("give `template` or `html`/`text`, not both");

    const other = await campaignWorkspace([{ email: "eve@example.org" }]);
    const theirs = await createTemplate(other.token, NEWS, true);
    const stranger = await dashboardPost("/dashboard/campaigns", owner, { ...fields, template_id: theirs });
    expect(stranger.status).toBe(404);
    const strangerPage = await stranger.text();
    expect(strangerPage).toContain('role="alert"');
    expect(strangerPage).toContain(`Template ${theirs} does not exist in this workspace.`);
    const list = await callJson<{ campaigns: unknown[] }>("GET", "/v1/campaigns", { token: ws.token });
    expect(list.body.campaigns).toEqual([]);
  });

  it("switches a draft from HTML to a template and back, both saved", async () => {
    const { ws, news, owner } = await withNews();
    const campaign = await createCampaign(ws);
    const toTemplate = await postRows(`/dashboard/campaigns/${campaign.id}`, owner, [
      ...Object.entries({ ...editorFields(ws), html: HTML, body: "template", template_id: news }),
      ["variable_key", "COMPANY"],
      ["variable_value", "Acme"],
    ]);
    expect(toTemplate.status).toBe(303);
    const templated = (await campaignOf(ws.token, campaign.id)) as WithTemplate;
    expect([templated.html, templated.template?.id]).toEqual([null, news]);
    const page = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(page).toMatch(/<input type="radio" name="body" value="template" checked/);
    expect(page).toContain(`<option value="${news}" selected="">`);
    expect(page).toContain('value="COMPANY"');

    const toHtml = await dashboardPost(`/dashboard/campaigns/${campaign.id}`, owner, {
      ...editorFields(ws),
      html: HTML,
      body: "html",
      template_id: news,
      variable_key: "COMPANY",
      variable_value: "Acme",
    });
    expect(toHtml.status).toBe(303);
    const own = (await campaignOf(ws.token, campaign.id)) as WithTemplate;
    expect([own.html, own.template]).toEqual([HTML, null]);
  });

  it("previews a template campaign as Ada would get it: statics, her name, the layout's frame, what she lacks", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    await createTemplate(ws.token, FRAME, true);
    const framed = await createTemplate(ws.token, { ...FRAMED, layout_id: "frame" }, true);
    const campaign = await createCampaign(ws, {
      html: undefined,
      template: { id: framed, variables: { COMPANY: "Globex <Inc>" } },
    });
    const owner = await signIn(ws.accountId, "owner");

    const preview = await dashboardGet(`/dashboard/campaigns/${campaign.id}/preview`, owner);
    expect(preview.headers.get("Content-Security-Policy")).toMatch(/^sandbox; default-src 'none'/);
    const html = await preview.text();
    expect(html).toContain("<header>Globex &lt;Inc&gt;</header>");
    expect(html).toContain("<main><p>Hi Ada, code {{CODE}}</p></main>");
    expect(html).toContain('<a href="#unsubscribe">unsubscribe</a>');

    const res = await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner);
    const page = await res.text();
    expect(page).toContain(`href="/dashboard/templates/${framed}"`);
    expect(page).toContain("Framed");
    expect(page).toMatch(/<iframe[^>]*sandbox=""[^>]*srcdoc="[^"]*Hi Ada, code \{\{CODE\}\}/);
    expect(page).toContain("recipients without a value for CODE are skipped");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });

  it("sends a test of a template campaign to oneself, and shows a variable the tester lacks as a problem", async () => {
    const { ws, news, owner } = await withNews();
    const campaign = await createCampaign(ws, {
      html: undefined,
      subject: "News for {{name|you}}",
      template: { id: news, variables: { COMPANY: "Acme" } },
    });
    const tested = await dashboardPost(`/dashboard/campaigns/${campaign.id}/test`, owner, {
      to: "ada@example.org",
    });
    expect(tested.headers.get("Location")).toBe(`/dashboard/campaigns/${campaign.id}?done=tested`);
    const row = await eventually(async () =>
      shardD1Of()
        .prepare("SELECT subject, html FROM emails WHERE account_id = ? AND subject LIKE '[Test]%'")
        .bind(ws.accountId)
        .first<{ subject: string; html: string }>(),
    );
    expect(row.subject).toBe("[Test] News for Ada");
    expect(row.html).toContain("Hi Ada from Acme: 1 seats, code none");

    // nobody@ is no contact: FIRST_NAME has no value for them.
    const lacking = await dashboardPost(`/dashboard/campaigns/${campaign.id}/test`, owner, {
      to: "nobody@example.org",
    });
    expect(lacking.status).toBe(400);
    const page = await lacking.text();
    expect(page).toContain('role="alert"');
    expect(page).toContain("<code>template.variables.FIRST_NAME</code> has no value for nobody@example.org");
  });

  it("shows a sent template campaign's skipped-for-a-missing-variable count, and previews the version it sent", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.org", name: "Ada" },
      { email: "bob@example.org" },
    ]);
    const news = await createTemplate(ws.token, NEWS, true);
    const campaign = await createCampaign(ws, {
      html: undefined,
      template: { id: news, variables: { COMPANY: "Acme" } },
    });
    const owner = await signIn(ws.accountId, "owner");
    expect((await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, owner)).status).toBe(303);
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).status === "sent");
    // A new version published since: the campaign's page still shows what it sent.
    await callJson("PATCH", `/v1/templates/${news}`, {
      token: ws.token,
      body: { html: `${NEWS.html}<p>Second</p>` },
    });
    await callJson("POST", `/v1/templates/${news}/publish`, { token: ws.token });

    const page = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(page).toMatch(/<dt>Skipped \(missing variable\)<\/dt>\s*<dd>1<\/dd>/);
    const preview = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}/preview`, owner)).text();
    expect(preview).toContain("Hi Ada from Acme: 1 seats, code none");
    expect(preview).not.toContain("Second");
  });

  it("previews a sent campaign in the layout version it pinned, though the layout is republished", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org", name: "Ada" }]);
    const frame = await createTemplate(ws.token, FRAME, true);
    const framed = await createTemplate(ws.token, { ...FRAMED, layout_id: frame }, true);
    const campaign = await createCampaign(ws, {
      html: undefined,
      template: { id: framed, variables: { CODE: "A1" } },
    });
    const owner = await signIn(ws.accountId, "owner");
    expect((await dashboardPost(`/dashboard/campaigns/${campaign.id}/send`, owner)).status).toBe(303);
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).status === "sent");
    await callJson("PATCH", `/v1/templates/${frame}`, {
      token: ws.token,
      body: { html: FRAME.html.replace("<header>", "<header>New ") },
    });
    expect((await callJson("POST", `/v1/templates/${frame}/publish`, { token: ws.token })).status).toBe(200);

    const preview = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}/preview`, owner)).text();
    expect(preview).toContain("<header>Acme &amp; Co</header>");
    expect(preview).toContain("<main><p>Hi Ada, code A1</p></main>");
    const page = await (await dashboardGet(`/dashboard/campaigns/${campaign.id}`, owner)).text();
    expect(page).toContain(`href="/dashboard/templates/${frame}"`);
    expect(page).not.toContain('data-preview="missing"');
  });
});
