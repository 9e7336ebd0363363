import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emails } from "../../src/db/schema";
import type { Automation } from "./automations-api-helpers";
import {
  automationWorkspace,
  enrollmentOf,
  historyOf,
  runEnrollment,
  seedAutomation,
  seedCustomer,
  seedEnrollment,
} from "./automations-helpers";
import { callJson, db, seedWorkspace } from "./helpers";
import { createTemplate } from "./templates-helpers";

type Errored = { code?: string; details?: Array<{ path: string; message: string }> };

const WELCOME = {
  name: "Welcome",
  alias: "welcome",
  subject: "Welcome {{FIRST_NAME}}",
  html: '<p>Hi {{FIRST_NAME}}, order {{ORDER}} on the {{PLAN}} plan.</p><a href="{{unsubscribe_url}}">Unsubscribe</a>',
  text: "Hi {{FIRST_NAME}}, order {{ORDER}}",
  variables: [
    { key: "FIRST_NAME", type: "string" },
    { key: "ORDER", type: "number" },
    { key: "PLAN", type: "string", fallback_value: "free" },
    { key: "unsubscribe_url", type: "string" },
  ],
};

const emailsTo = (accountId: string) => db().select().from(emails).where(eq(emails.accountId, accountId));

describe("automation send_email steps with a template", () => {
  it("refuses a body as well, another workspace's template, bad static values and no subject; stores the id", async () => {
    const ws = await automationWorkspace();
    const other = await seedWorkspace();
    const foreign = await createTemplate(other.token, { ...WELCOME, alias: "theirs" }, true);
    await createTemplate(ws.token, WELCOME, true);
    const noSubject = await createTemplate(ws.token, { ...WELCOME, alias: "bare", subject: null }, true);
    const from = `hello@${ws.domain}`;
    const create = (step: Record<string, unknown>) =>
      callJson<Automation & Errored>("POST", "/v1/automations", {
        token: ws.token,
        body: {
          name: "Onboarding",
          trigger: { type: "api" },
          steps: [{ type: "send_email", from, ...step }],
        },
      });

    expect((await create({ template: { id: "welcome" }, html: "<p>x</p>" })).status).toBe(400);
    expect((await create({ template: { id: foreign } })).status).toBe(404);
    const bad = await create({ template: { id: "welcome", variables: { ORDER: "7", COLOR: "red" } } });
    expect(bad.status).toBe(422);
    expect(bad.body.details?.map((d) => d.path).sort()).toEqual([
      "body.steps.0.template.variables.COLOR",
      "body.steps.0.template.variables.ORDER",
    ]);
    const subjectless = await create({ template: { id: noSubject } });
    expect(subjectless.status).toBe(400);
    expect(subjectless.body.details?.[0]?.path).toBe("body.steps.0.subject");
    expect((await create({ subject: "Hi", template: { id: noSubject } })).status).toBe(201);

    const created = await create({ template: { id: "welcome", variables: { PLAN: "pro" } } });
    expect(created.status).toBe(201);
    const templateId = (await callJson<{ id: string }>("GET", "/v1/templates/welcome", { token: ws.token }))
      .body.id;
    expect(created.body.steps[0]?.template).toEqual({ id: templateId, variables: { PLAN: "pro" } });
  });

  it("refuses to activate with a template never published", async () => {
    const ws = await automationWorkspace();
    const draft = await createTemplate(ws.token, { ...WELCOME, alias: "draft" });
    const created = await callJson<Automation>("POST", "/v1/automations", {
      token: ws.token,
      body: {
        name: "Onboarding",
        trigger: { type: "api" },
        steps: [{ type: "send_email", from: `hello@${ws.domain}`, template: { id: draft } }],
      },
    });
    expect(created.status).toBe(201);
    const activated = await callJson<Errored>("POST", `/v1/automations/${created.body.id}/activate`, {
      token: ws.token,
    });
    expect(activated.status).toBe(422);
    expect(activated.body.code).toBe("template_not_published");
  });

  it("fills the email from the step, the trigger data and the customer; skips with the reason when a value is missing", async () => {
    const ws = await automationWorkspace();
    const templateId = await createTemplate(ws.token, WELCOME, true);
    const version = (
      await callJson<{ current_version_id: string }>("GET", `/v1/templates/${templateId}`, {
        token: ws.token,
      })
    ).body.current_version_id;
    const step = {
      id: "stp_mail",
      type: "send_email" as const,
      from: `hello@${ws.domain}`,
      template: { id: templateId, variables: {} },
    };
    const automation = await seedAutomation(ws.accountId, [step]);

    const ada = await seedCustomer(ws.accountId, { name: "Ada Lovelace", metadata: { PLAN: "pro" } });
    const sent = await seedEnrollment(automation, ada.id, { ORDER: 42 });
    await using first = await runEnrollment(sent);
    await first.waitForStatus("complete");

    // No ORDER in the trigger data or metadata, and no fallback: skipped, the run goes on.
    const bob = await seedCustomer(ws.accountId, { name: "Bob" });
    const skipped = await seedEnrollment(automation, bob.id, {});
    await using second = await runEnrollment(skipped);
    await second.waitForStatus("complete");

    const [mail, ...others] = await emailsTo(ws.accountId);
    expect(others).toHaveLength(0);
    expect(mail).toMatchObject({
      subject: "Welcome Ada",
      source: "automation",
      templateId,
      templateVersionId: version,
    });
    expect(mail?.html).toContain("<p>Hi Ada, order 42 on the pro plan.</p>");
    expect(mail?.html).toMatch(/href="[^"]+(\/|&#x2F;)u(\/|&#x2F;)[^"]+"/);
    expect(mail?.text).toMatch(/^Hi Ada, order 42\n\nUnsubscribe: \S+\/u\/\S+\n$/);
    for (const field of [mail?.subject, mail?.html, mail?.text]) expect(field ?? "").not.toContain("{{");
    expect((await historyOf(sent.id)).stp_mail).toMatchObject({
      status: "succeeded",
      detail: { email_id: mail?.id },
    });
    expect((await historyOf(skipped.id)).stp_mail).toMatchObject({
      status: "skipped",
      error: "missing_variables: ORDER",
    });
    expect((await enrollmentOf(skipped.id))?.status).toBe("completed");
  });

  it("fails the step when the template was removed, and never sends a draft", async () => {
    const ws = await automationWorkspace();
    const gone = await createTemplate(ws.token, { ...WELCOME, alias: "gone" }, true);
    const draft = await createTemplate(ws.token, { ...WELCOME, alias: "draftonly" });
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_gone", type: "send_email", from: `hello@${ws.domain}`, template: { id: gone } },
      { id: "stp_draft", type: "send_email", from: `hello@${ws.domain}`, template: { id: draft } },
    ]);
    expect((await callJson("DELETE", `/v1/templates/${gone}`, { token: ws.token })).status).toBe(200);
    const customer = await seedCustomer(ws.accountId, { metadata: { ORDER: 1 } });
    const enrollment = await seedEnrollment(automation, customer.id);
    await using run = await runEnrollment(enrollment);
    await run.waitForStatus("complete");
    const history = await historyOf(enrollment.id);
    expect(history.stp_gone).toMatchObject({ status: "failed" });
    expect(history.stp_gone?.error).toMatch(/^template_not_found/);
    expect(history.stp_draft?.error).toMatch(/^template_not_published/);
    expect(await emailsTo(ws.accountId)).toHaveLength(0);
  });

  it("frames a step's template in its layout's published version", async () => {
    const ws = await automationWorkspace();
    const layout = await createTemplate(
      ws.token,
      {
        name: "Frame",
        type: "layout",
        html: '<div class="frame">{{{@content}}}<a href="{{{unsubscribe_url}}}">Unsubscribe</a></div>',
        variables: [{ key: "unsubscribe_url", type: "string" }],
      },
      true,
    );
    const framed = await createTemplate(
      ws.token,
      { ...WELCOME, alias: "framed", html: "<p>Order {{ORDER}}</p>", text: null, layout_id: layout },
      true,
    );
    const automation = await seedAutomation(ws.accountId, [
      { id: "stp_framed", type: "send_email", from: `hello@${ws.domain}`, template: { id: framed } },
    ]);
    const customer = await seedCustomer(ws.accountId, { name: "Ada", metadata: { ORDER: 7 } });
    const enrollment = await seedEnrollment(automation, customer.id);
    await using run = await runEnrollment(enrollment);
    await run.waitForStatus("complete");
    expect((await historyOf(enrollment.id)).stp_framed).toMatchObject({ status: "succeeded" });
    const [email] = await emailsTo(ws.accountId);
    expect(email?.html).toMatch(
      /^<div class="frame"><p>Order 7<\/p><a href="https?:\/\/[^"]+">Unsubscribe<\/a><\/div>$/,
    );
    expect(email?.templateLayoutId).toBe(layout);
  });
});
