import { describe, expect, it } from "vitest";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { callJson, sendingWorkspace } from "./helpers";
import { createTemplate } from "./templates-helpers";

const editor = (domain: string, fields: Record<string, string> = {}) => ({
  name: "Receipt",
  alias: "",
  subject: "Order {{ORDER}}",
  from: `Acme <orders@${domain}>`,
  reply_to: "",
  html: "<p>Order {{ORDER}}</p>",
  text: "",
  var_key: "ORDER",
  var_type: "number",
  var_fallback: "",
  var_value: "",
  ...fields,
});

async function workspace() {
  const ws = await sendingWorkspace(`tpl-${crypto.randomUUID().slice(0, 8)}.test`);
  return { ...ws, owner: await signIn(ws.accountId, "owner") };
}

describe("dashboard: templates", () => {
  it("previews unsaved content in a sandboxed srcdoc, escaped, with what a send would refuse", async () => {
    const ws = await workspace();
    const answer = await dashboardPost(
      "/dashboard/templates/preview",
      ws.owner,
      editor(ws.domain, {
        html: '<p title="x">{{ORDER}} & {{COUPON}}</p><script>alert(1)</script>',
        var_value: "not a number",
      }),
    );
    expect(answer.status).toBe(200);
    const fragment = await answer.text();
    expect(fragment).toContain('sandbox=""');
    // The email is an attribute's value: nothing of it is markup of the page.
    expect(fragment).toContain('srcdoc="&lt;p title=&quot;x&quot;&gt;not a number &amp; {{COUPON}}');
    expect(fragment).not.toContain("<script>");
    expect(fragment).toMatch(/Missing[^<]*\{\{COUPON\}\}/);
    expect(fragment).toContain("ORDER must be a number");
    expect(fragment).toContain("COUPON is used but not declared in variables");

    const broken = await dashboardPost(
      "/dashboard/templates/preview",
      ws.owner,
      editor(ws.domain, { html: "<p>ok</p>\r\n<p>{{ORDER</p>" }),
    );
    const markup = await broken.text();
    expect(markup).toContain("line 2, column 4");
    expect(markup).not.toContain("<iframe");
  });

  it("sends a test to the signed-in person only, whatever the form adds", async () => {
    const ws = await workspace();
    const id = await createTemplate(ws.token, { name: "Receipt", html: "<p>x</p>" });
    const page = await (await dashboardGet(`/dashboard/templates/${id}`, ws.owner)).text();
    expect(page).toContain("Send a test to me");
    const sent = await dashboardPost(`/dashboard/templates/${id}/test`, ws.owner, {
      ...editor(ws.domain, { var_value: "42" }),
      to: "someone-else@example.org",
    });
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain("Test email sent to you.");
    const emails = await callJson<{ data: Array<{ to: string[]; subject: string }> }>("GET", "/v1/emails", {
      token: ws.token,
    });
    expect(emails.body.data.map((e) => [e.to, e.subject])).toEqual([
      [[ws.owner.user.email], "[Test] Order 42"],
    ]);

    // A variable without a value is never sent as a placeholder.
    const refused = await dashboardPost(`/dashboard/templates/${id}/test`, ws.owner, editor(ws.domain));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("variables.ORDER");
  });

  it("lists unpublished changes, lets agents read but not write, and gives the editor its own policy", async () => {
    const ws = await workspace();
    const id = await createTemplate(ws.token, { name: "Welcome <b>", html: "<p>Hi</p>" }, true);
    const published = await createTemplate(ws.token, { name: "Published one", html: "<p>Hi</p>" }, true);
    await callJson("PATCH", `/v1/templates/${id}`, { token: ws.token, body: { html: "<p>Hello</p>" } });
    const agent = await signIn(ws.accountId, "agent");
    const list = await (await dashboardGet("/dashboard/templates", agent)).text();
    expect(list).toContain("Welcome &lt;b&gt;");
    const rowOf = (templateId: string) =>
      list.slice(list.indexOf(templateId), list.indexOf("</tr>", list.indexOf(templateId)));
    expect(rowOf(id)).toContain("unpublished changes");
    expect(rowOf(published)).not.toContain("unpublished changes");
    expect(list).not.toContain("New template");

    const page = await dashboardGet(`/dashboard/templates/${id}`, agent);
    expect(page.headers.get("Content-Security-Policy")).toContain("style-src 'self' 'unsafe-inline'");
    expect(page.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    expect(await page.text()).not.toContain("Save draft");
    const listPolicy = (await dashboardGet("/dashboard/templates", agent)).headers.get(
      "Content-Security-Policy",
    );
    expect(listPolicy).not.toContain("unsafe-inline");
    const saved = await dashboardPost(`/dashboard/templates/${id}`, agent, {
      ...editor(ws.domain),
      version_id: "x",
      revision: "0",
    });
    expect(saved.status).toBe(403);
  });

  it("saves only what changed: a save without a change makes no draft; a stale page's save is 409", async () => {
    const ws = await workspace();
    const fields = editor(ws.domain, { var_fallback: "1" });
    const id = await createTemplate(
      ws.token,
      {
        name: fields.name,
        subject: fields.subject,
        from: fields.from,
        html: fields.html,
        variables: [{ key: "ORDER", type: "number", fallback_value: 1 }],
      },
      true,
    );
    const template = async () =>
      (
        await callJson<{ current_version_id: string; has_unpublished_versions: boolean; html: string }>(
          "GET",
          `/v1/templates/${id}`,
          { token: ws.token },
        )
      ).body;
    const shown = { version_id: (await template()).current_version_id, revision: "0" };
    const unchanged = await dashboardPost(`/dashboard/templates/${id}`, ws.owner, { ...fields, ...shown });
    expect(unchanged.status).toBe(303);
    expect(await template()).toMatchObject({
      current_version_id: shown.version_id,
      has_unpublished_versions: false,
    });

    const edited = await dashboardPost(`/dashboard/templates/${id}`, ws.owner, {
      ...fields,
      ...shown,
      html: "<p>Order {{ORDER}} shipped</p>",
    });
    expect(edited.status).toBe(303);
    expect(await template()).toMatchObject({
      has_unpublished_versions: true,
      html: "<p>Order {{ORDER}} shipped</p>",
    });

    const stale = await dashboardPost(`/dashboard/templates/${id}`, ws.owner, {
      ...fields,
      ...shown,
      html: "<p>lost</p>",
    });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("reload it");
    expect((await template()).html).toBe("<p>Order {{ORDER}} shipped</p>");
  });
});
