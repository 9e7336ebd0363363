import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { templateChoiceQueries } from "../../src/dashboard/template-choices";
import { templates } from "../../src/db/schema";
import { guardSql, type Usable } from "../../src/features/templates/send-cache";
import type { Automation } from "./automations-api-helpers";
import { automationWorkspace } from "./automations-helpers";
import { dashboardGet, dashboardPost, signIn } from "./dashboard-helpers";
import { formFieldsOf } from "./form-fields";
import { callJson, db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";
import { createTemplate } from "./templates-helpers";

const WELCOME = {
  name: "Welcome mail",
  subject: "Welcome {{first_name}}",
  html: '<p>Hi {{first_name}}, you are on {{PLAN}}.</p><a href="{{unsubscribe_url}}">Unsubscribe</a>',
  variables: [
    { key: "first_name", type: "string" },
    { key: "PLAN", type: "string" },
    { key: "unsubscribe_url", type: "string" },
  ],
};

const automationOf = async (token: string, id: string) =>
  (await callJson<Automation>("GET", `/v1/automations/${id}`, { token })).body;

const createdId = (response: Response) =>
  /^\/dashboard\/automations\/(aut_[0-9A-Za-z]+)\?done=created$/.exec(
    response.headers.get("Location") ?? "",
  )?.[1] ?? "";

describe("dashboard: automation steps that send a template", () => {
  it("saves an automation made through the API unchanged: its template step and reply-to survive the editor", async () => {
    const ws = await automationWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const template = await createTemplate(ws.token, WELCOME, true);
    const steps = [
      {
        id: "stp_welcome",
        type: "send_email",
        from: `hello@${ws.domain}`,
        reply_to: `help@${ws.domain}`,
        template: { id: template, variables: { PLAN: "Pro" } },
      },
      { id: "stp_wait", type: "wait", duration: "1d" },
      {
        id: "stp_own",
        type: "send_email",
        from: `hello@${ws.domain}`,
        subject: "Still there?",
        html: "<p>Hi</p>",
      },
    ];
    const made = await callJson<Automation>("POST", "/v1/automations", {
      token: ws.token,
      body: { name: "Onboarding", trigger: { type: "api" }, steps },
    });
    expect(made.status).toBe(201);
    const before = await automationOf(ws.token, made.body.id);

    const path = `/dashboard/automations/${made.body.id}`;
    const page = await (await dashboardGet(path, admin)).text();
    const fields = formFieldsOf(page, path);
    expect(fields["steps.0.template_id"]).toBe(template);
    expect(JSON.parse(fields["steps.0.template_variables"] ?? "")).toEqual({ PLAN: "Pro" });
    expect(fields["steps.0.reply_to"]).toBe(`help@${ws.domain}`);
    expect(fields["steps.2.template_id"]).toBe("");

    const saved = await dashboardPost(path, admin, { ...fields, op: "save" });
    expect(saved.status).toBe(303);
    expect(await automationOf(ws.token, made.body.id)).toEqual({ ...before, updated_at: expect.any(String) });
  });

  it("creates a template step from the select; the API's refusals show on the form with the values kept", async () => {
    const ws = await automationWorkspace();
    const other = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const template = await createTemplate(ws.token, WELCOME, true);
    const foreign = await createTemplate(other.token, WELCOME, true);
    const step = (fields: Record<string, string>) => ({
      name: "Onboarding",
      trigger_type: "api",
      "steps.0.id": "",
      "steps.0.type": "send_email",
      "steps.0.from": `hello@${ws.domain}`,
      "steps.0.subject": "",
      "steps.0.html": "",
      "steps.0.text": "",
      ...fields,
      op: "save",
    });

    const unreadable = await dashboardPost("/dashboard/automations", admin, {
      ...step({ "steps.0.template_id": template, "steps.0.template_variables": "{PLAN: Pro}" }),
    });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.text()).toContain("<code>body.steps.0.template_variables</code>");

    const refused = await dashboardPost(
      "/dashboard/automations",
      admin,
      step({ "steps.0.template_id": template, "steps.0.template_variables": '{"PLAN": 3, "COLOR": "red"}' }),
    );
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("<code>body.steps.0.template.variables.COLOR</code>");
    expect(refusedPage).toContain("<code>body.steps.0.template.variables.PLAN</code>");
    expect(formFieldsOf(refusedPage, "/dashboard/automations")["steps.0.template_id"]).toBe(template);

    const theirs = await dashboardPost(
      "/dashboard/automations",
      admin,
      step({ "steps.0.template_id": foreign }),
    );
    expect(theirs.status).toBe(400);
    expect(await theirs.text()).toContain('role="alert"');

    const both = await dashboardPost(
      "/dashboard/automations",
      admin,
      step({ "steps.0.template_id": template, "steps.0.html": "<p>mine</p>" }),
    );
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("<code>body.steps.0.template</code>");

    const list = await callJson<{ data: unknown[] }>("GET", "/v1/automations", { token: ws.token });
    expect(list.body.data).toEqual([]);

    const created = await dashboardPost(
      "/dashboard/automations",
      admin,
      step({ "steps.0.template_id": template, "steps.0.template_variables": '{"PLAN": "Pro"}' }),
    );
    expect(created.status).toBe(303);
    const automation = await automationOf(ws.token, createdId(created));
    expect(automation.steps).toEqual([
      {
        id: expect.stringMatching(/^stp_/),
        type: "send_email",
        from: `hello@${ws.domain}`,
        template: { id: template, variables: { PLAN: "Pro" } },
      },
    ]);

    // An agent reads the steps: the template's name, not a subject of "null".
    const agent = await signIn(ws.accountId, "agent");
    const read = await (await dashboardGet(`/dashboard/automations/${automation.id}`, agent)).text();
    expect(read).toContain("template “Welcome mail”");
    expect(read).not.toContain("“null”");
  });

  it("offers the workspace's templates, not layouts nor another's, and keeps a chosen one older than the newest hundred", async () => {
    const ws = await automationWorkspace();
    const other = await seedWorkspace();
    const admin = await signIn(ws.accountId, "admin");
    const oldest = await createTemplate(ws.token, { ...WELCOME, name: "Oldest receipt" }, true);
    const draft = await createTemplate(ws.token, { ...WELCOME, name: "Unfinished" });
    await createTemplate(ws.token, { name: "Frame", type: "layout", html: "<div>{{{@content}}}</div>" });
    await createTemplate(other.token, { ...WELCOME, name: "Their receipt" }, true);
    // A hundred newer templates, written as the API stores them (ids later than the oldest's).
    const now = Date.now();
    const newer = Array.from({ length: 100 }, (_, i) => ({
      id: `tpl_${"Z".repeat(16)}${String(i).padStart(10, "0")}`,
      accountId: ws.accountId,
      name: `Newer ${i}`,
      currentVersionId: `tv_newer_${i}`,
      createdAt: now,
      updatedAt: now,
    }));
    for (let i = 0; i < newer.length; i += 10)
      await db()
        .insert(templates)
        .values(newer.slice(i, i + 10));

    const made = await callJson<Automation>("POST", "/v1/automations", {
      token: ws.token,
      body: {
        name: "Receipts",
        trigger: { type: "api" },
        steps: [{ type: "send_email", from: `hello@${ws.domain}`, template: { id: oldest } }],
      },
    });
    const page = await (await dashboardGet(`/dashboard/automations/${made.body.id}`, admin)).text();
    expect(page).toMatch(new RegExp(`<option value="${oldest}" selected="">Oldest receipt</option>`));
    // Not published: marked (a step naming it is refused on activation until it is).
    expect(page).toContain("Newer 99 (not published yet)");
    // Older than the newest hundred and not chosen: not offered.
    expect(page).not.toContain("Unfinished");
    expect(page).not.toContain(">Frame<");
    expect(page).not.toContain("Their receipt");
    expect(page).not.toContain(draft);
  });

  it("reads the choices and checks a kept template by indexes only", async () => {
    const [chosen, newest] = templateChoiceQueries(db(), "acc_X", ["tpl_A", "tpl_B"]);
    expectIndexed(await planOf(chosen), "templates");
    expectIndexed(await planOf(newest), "templates");
    const kept = { id: "tpl_A", type: "template" } as Usable["template"];
    const version = { id: "tpv_A" } as Usable["version"];
    const layout = { id: "tpv_L", templateId: "tpl_L" } as NonNullable<Usable["layout"]>;
    for (const ref of [{ id: "tpl_A" }, { id: "receipt" }, { id: "tpl_A", version_id: "tpv_A" }]) {
      const plan = await planOf(sql`SELECT ${guardSql("acc_X", ref, { template: kept, version, layout })}`);
      expectIndexed(plan, "templates");
    }
  });
});
