import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, type SignedIn, signIn } from "./dashboard-helpers";
import { callJson, sendingWorkspace } from "./helpers";
import { createTemplate } from "./templates-helpers";

/** The editor's fields for a template: ORDER has a fallback, so the preview fills it. */
const templateForm = (domain: string, fields: Record<string, string> = {}) => ({
  type: "template",
  name: "Receipt",
  alias: "",
  subject: "Order {{ORDER}}",
  from: `Acme <orders@${domain}>`,
  reply_to: "",
  layout_id: "",
  html: "<p>Order {{ORDER}} body</p>",
  text: "",
  var_key: "ORDER",
  var_type: "number",
  var_fallback: "1",
  var_value: "",
  ...fields,
});

/** The editor's fields for a layout (as the new-layout page posts them: no subject, from, reply-to or layout). */
const layoutForm = (fields: Record<string, string> = {}) => ({
  type: "layout",
  name: "Brand frame",
  alias: "",
  html: "<header>ACME HEADER {{BRAND}}</header>{{{@content}}}<footer>Footer</footer>",
  text: "",
  var_key: "BRAND",
  var_type: "string",
  var_fallback: "Acme",
  var_value: "",
  ...fields,
});

/** A layout through the API; NOTE has no fallback, so a preview lists it missing. */
const LAYOUT = {
  name: "Frame",
  type: "layout",
  html: "<header>ACME HEADER {{BRAND}}</header>{{{@content}}}<footer>{{NOTE}}</footer>",
  variables: [
    { key: "BRAND", type: "string", fallback_value: "Acme" },
    { key: "NOTE", type: "string" },
  ],
};

async function workspace() {
  const ws = await sendingWorkspace(`tpl-${crypto.randomUUID().slice(0, 8)}.test`);
  return { ...ws, owner: await signIn(ws.accountId, "owner") };
}

type ApiTemplate = { type?: string; layout_id?: string; subject: string | null; html: string };

const apiTemplate = async (token: string, id: string) =>
  (await callJson<ApiTemplate>("GET", `/v1/templates/${id}`, { token })).body;

/** The version and revision a template's page shows: what its save carries. */
async function seen(who: SignedIn, id: string) {
  const page = await (await dashboardGet(`/dashboard/templates/${id}`, who)).text();
  const field = (name: string) => page.match(new RegExp(`name="${name}" value="([^"]+)"`))?.[1] ?? "";
  return { version_id: field("version_id"), revision: field("revision") };
}

const preview = async (who: SignedIn, fields: Record<string, string>) =>
  (await dashboardPost("/dashboard/templates/preview", who, fields)).text();

describe("dashboard: templates with layouts", () => {
  it("creates a layout through the dashboard's forms, with a layout's editor, listed as a layout", async () => {
    const ws = await workspace();
    const form = await (await dashboardGet("/dashboard/templates/new?type=layout", ws.owner)).text();
    expect(form).toContain("{{{@content}}}");
    expect(form).not.toContain('name="subject"');
    expect(form).not.toContain('name="layout_id"');
    expect(form).toContain('name="type" value="layout"');

    const created = await dashboardPost("/dashboard/templates", ws.owner, layoutForm());
    expect(created.status).toBe(303);
    const id = created.headers.get("Location")?.match(/templates\/(tpl_[^?]+)/)?.[1] as string;
    expect(await apiTemplate(ws.token, id)).toMatchObject({ type: "layout", subject: null });

    // Saved from its own page: still a layout's form, accepted by the API.
    const saved = await dashboardPost(`/dashboard/templates/${id}`, ws.owner, {
      ...layoutForm({ html: "<header>NEW HEADER</header>{{{@content}}}" }),
      ...(await seen(ws.owner, id)),
    });
    expect(saved.status).toBe(303);
    expect((await apiTemplate(ws.token, id)).html).toBe("<header>NEW HEADER</header>{{{@content}}}");
    const page = await (await dashboardGet(`/dashboard/templates/${id}`, ws.owner)).text();
    expect(page).not.toContain('name="subject"');

    const layouts = await (await dashboardGet("/dashboard/templates?type=layout", ws.owner)).text();
    const row = layouts.slice(layouts.indexOf(id), layouts.indexOf("</tr>", layouts.indexOf(id)));
    expect(row).toContain("Brand frame");
    expect(row).toContain(">layout<");
    const templates = await (await dashboardGet("/dashboard/templates", ws.owner)).text();
    expect(templates).not.toContain(id);
  });

  it("chooses a template's layout, changes it and clears it through the editor's save", async () => {
    const ws = await workspace();
    const published = await createTemplate(ws.token, { ...LAYOUT, name: "Published frame" }, true);
    const draft = await createTemplate(ws.token, { ...LAYOUT, name: "Draft frame" });
    const fields = templateForm(ws.domain);
    const id = await createTemplate(ws.token, {
      name: fields.name,
      subject: fields.subject,
      from: fields.from,
      html: fields.html,
      variables: [{ key: "ORDER", type: "number", fallback_value: 1 }],
    });
    const page = await (await dashboardGet(`/dashboard/templates/${id}`, ws.owner)).text();
    expect(page).toContain(`<option value="${published}">Published frame</option>`);
    expect(page).toContain(`<option value="${draft}">Draft frame (not published)</option>`);
    expect(page).toContain("No layout");

    const save = async (layout: string) =>
      dashboardPost(`/dashboard/templates/${id}`, ws.owner, {
        ...fields,
        layout_id: layout,
        ...(await seen(ws.owner, id)),
      });
    expect((await save(published)).status).toBe(303);
    expect((await apiTemplate(ws.token, id)).layout_id).toBe(published);
    expect((await save(draft)).status).toBe(303);
    expect((await apiTemplate(ws.token, id)).layout_id).toBe(draft);
    const shown = await (await dashboardGet(`/dashboard/templates/${id}`, ws.owner)).text();
    expect(shown).toContain(`<option value="${draft}" selected="">Draft frame (not published)</option>`);
    expect((await save("")).status).toBe(303);
    expect((await apiTemplate(ws.token, id)).layout_id).toBeUndefined();
  });

  it("previews a template inside its layout's published version, the layout's variables joined", async () => {
    const ws = await workspace();
    const layout = await createTemplate(ws.token, LAYOUT, true);
    // A draft edit of the layout is not what a send uses: the preview shows the published one.
    await callJson("PATCH", `/v1/templates/${layout}`, {
      token: ws.token,
      body: { html: "<header>UNPUBLISHED EDIT</header>{{{@content}}}" },
    });
    const fragment = await preview(ws.owner, templateForm(ws.domain, { layout_id: layout }));
    expect(fragment).toContain("ACME HEADER Acme");
    expect(fragment).toContain("Order 1 body");
    expect(fragment).not.toContain("UNPUBLISHED EDIT");
    expect(fragment).not.toContain("@content");
    expect(fragment).toMatch(/Missing[^<]*\{\{NOTE\}\}/);
    // Unframed without a layout named.
    expect(await preview(ws.owner, templateForm(ws.domain))).not.toContain("ACME HEADER");
  });

  it("shows a layout's own preview with a placeholder block in its slot", async () => {
    const ws = await workspace();
    const fragment = await preview(ws.owner, layoutForm());
    expect(fragment).toContain("ACME HEADER Acme");
    expect(fragment).toContain("content goes here");
    expect(fragment).not.toContain("{{{@content}}}");
    expect(fragment).not.toContain("Markup errors");
  });

  it("says plainly that a named layout has no published version, and shows the draft unframed", async () => {
    const ws = await workspace();
    const layout = await createTemplate(ws.token, LAYOUT);
    const fragment = await preview(ws.owner, templateForm(ws.domain, { layout_id: layout }));
    expect(fragment).toContain("Layout Frame has no published version");
    expect(fragment).toContain('data-preview="layout"');
    expect(fragment).toContain("Order 1 body");
    expect(fragment).not.toContain("ACME HEADER");
  });

  it("never frames in, nor saves, another workspace's layout", async () => {
    const ws = await workspace();
    const other = await workspace();
    const foreign = await createTemplate(other.token, LAYOUT, true);
    const fragment = await preview(ws.owner, templateForm(ws.domain, { layout_id: foreign }));
    expect(fragment).toContain(`Layout ${foreign} is not a layout of this workspace`);
    expect(fragment).not.toContain("ACME HEADER");

    const fields = templateForm(ws.domain);
    const id = await createTemplate(ws.token, { name: fields.name, html: fields.html });
    const saved = await dashboardPost(`/dashboard/templates/${id}`, ws.owner, {
      ...fields,
      layout_id: foreign,
      ...(await seen(ws.owner, id)),
    });
    expect(saved.status).toBe(400);
    expect(await saved.text()).toContain("no layout of this workspace");
    expect((await apiTemplate(ws.token, id)).layout_id).toBeUndefined();
    const created = await dashboardPost("/dashboard/templates", ws.owner, { ...fields, layout_id: foreign });
    expect(created.status).toBe(400);
  });

  it("sends the test to me framed, with the same html as a send of the published template", async () => {
    const ws = await workspace();
    const layout = await createTemplate(
      ws.token,
      {
        ...LAYOUT,
        variables: [
          { key: "BRAND", type: "string", fallback_value: "Acme" },
          { key: "NOTE", type: "string", fallback_value: "Bye" },
        ],
      },
      true,
    );
    const fields = templateForm(ws.domain, { layout_id: layout, var_value: "42" });
    const id = await createTemplate(
      ws.token,
      {
        name: fields.name,
        subject: fields.subject,
        from: fields.from,
        html: fields.html,
        layout_id: layout,
        variables: [{ key: "ORDER", type: "number", fallback_value: 1 }],
      },
      true,
    );
    const tested = await dashboardPost(`/dashboard/templates/${id}/test`, ws.owner, fields);
    expect(tested.status).toBe(200);
    expect(await tested.text()).toContain("Test email sent to you.");
    const real = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: { to: ws.owner.user.email, template: { id, variables: { ORDER: 42 } } },
    });
    expect(real.status).toBe(200);
    type Email = { id: string; subject: string; html: string };
    const list = await callJson<{ data: Email[] }>("GET", "/v1/emails", { token: ws.token });
    const html = async (subject: string) => {
      const email = list.body.data.find((e) => e.subject === subject) as Email;
      return (await callJson<Email>("GET", `/v1/emails/${email.id}`, { token: ws.token })).body.html;
    };
    const test = await html("[Test] Order 42");
    expect(test).toContain("ACME HEADER Acme");
    expect(test).toBe(await html("Order 42"));
  });
});
