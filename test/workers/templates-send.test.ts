import { describe, expect, it } from "vitest";
import { callJson, errorBody, rowCount, sendingWorkspace } from "./helpers";
import { contentWithoutIds, createTemplate, sent } from "./templates-helpers";

type Email = Record<string, unknown> & { id: string; status: string };

const RECEIPT = {
  name: "Receipt",
  alias: "receipt",
  from: "Acme <orders@tpl-send.test>",
  reply_to: "help@tpl-send.test",
  subject: "Order {{ORDER}}",
  html: "<p>Hi {{NAME}}, order {{ORDER}}: {{{NOTE}}}</p>",
  text: "Hi {{NAME}}, order {{ORDER}}",
  variables: [
    { key: "NAME", type: "string", fallback_value: "there" },
    { key: "ORDER", type: "number" },
    { key: "NOTE", type: "string", fallback_value: "" },
  ],
};

describe("sending through a template", () => {
  it("builds the same bytes as the same HTML sent directly, and records the version", async () => {
    const ws = await sendingWorkspace("tpl-send.test");
    const templateId = await createTemplate(ws.token, RECEIPT, true);
    const version = (
      await callJson<{ current_version_id: string }>("GET", `/v1/templates/${templateId}`, {
        token: ws.token,
      })
    ).body.current_version_id;

    const viaTemplate = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        to: "ada@example.com",
        template: { id: "receipt", variables: { NAME: "Ada & co", ORDER: 42, NOTE: "<b>paid</b>" } },
      },
    });
    expect(viaTemplate.status).toBe(200);
    const direct = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "Acme <orders@tpl-send.test>",
        reply_to: "help@tpl-send.test",
        to: "ada@example.com",
        subject: "Order 42",
        html: "<p>Hi Ada &amp; co, order 42: <b>paid</b></p>",
        text: "Hi Ada & co, order 42",
      },
    });
    expect(direct.status).toBe(200);

    const shown = await sent(ws.token, viaTemplate.body.id);
    expect(shown).toMatchObject({
      subject: "Order 42",
      from: "Acme <orders@tpl-send.test>",
      reply_to: ["help@tpl-send.test"],
      html: "<p>Hi Ada &amp; co, order 42: <b>paid</b></p>",
      text: "Hi Ada & co, order 42",
      template: { id: templateId, version_id: version },
    });
    expect((await sent(ws.token, direct.body.id)).template).toBeNull();
    const a = await contentWithoutIds(ws.token, viaTemplate.body.id);
    const b = await contentWithoutIds(ws.token, direct.body.id);
    expect(a).toContain("Order 42");
    expect(a).toBe(b);
  });

  it("refuses undeclared, missing and mistyped variables with 422 naming each, queuing nothing", async () => {
    const ws = await sendingWorkspace("tpl-send.test");
    await createTemplate(ws.token, RECEIPT, true);
    const refused = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { to: "ada@example.com", template: { id: "receipt", variables: { NAME: 7, COUPON: "x" } } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      ...errorBody("Template variables are invalid", "template_variables_invalid"),
      message: expect.stringContaining("body.template.variables.COUPON"),
      details: [
        { path: "body.template.variables.COUPON", message: "is not a variable of the template" },
        { path: "body.template.variables.ORDER", message: "is required: it has no fallback_value" },
        { path: "body.template.variables.NAME", message: "must be a string" },
      ],
    });

    const batch = await callJson("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [
        { to: "ada@example.com", template: { id: "receipt", variables: { ORDER: 1 } } },
        { to: "bob@example.com", template: { id: "receipt", variables: { ORDER: "2" } } },
      ],
    });
    expect(batch.status).toBe(422);
    expect(batch.body).toMatchObject({
      code: "template_variables_invalid",
      details: [{ path: "body.1.template.variables.ORDER", message: "must be a number" }],
    });
    expect(await rowCount("emails", ws.accountId)).toBe(0);
  });

  it("sends a batch through templates and HTML together, each email its own values", async () => {
    const ws = await sendingWorkspace("tpl-send.test");
    const templateId = await createTemplate(ws.token, RECEIPT, true);
    const { status, body } = await callJson<{ data: Email[] }>("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [
        { to: "ada@example.com", template: { id: templateId, variables: { ORDER: 1 } } },
        {
          to: "bob@example.com",
          subject: "Own subject",
          template: { id: "receipt", variables: { ORDER: 2, NAME: "Bob" } },
        },
        { from: "hi@tpl-send.test", to: "cy@example.com", subject: "Plain", text: "plain" },
      ],
    });
    expect(status).toBe(200);
    const [first, second, third] = await Promise.all(
      body.data.map(
        async (e) => (await callJson<Email>("GET", `/v1/emails/${e.id}`, { token: ws.token })).body,
      ),
    );
    expect(first).toMatchObject({ subject: "Order 1", text: "Hi there, order 1" });
    expect(second).toMatchObject({ subject: "Own subject", text: "Hi Bob, order 2" });
    expect(third).toMatchObject({ subject: "Plain", text: "plain", template: null });
  });

  it("replays a keyed send's answer before reading templates: a removed template does not change it", async () => {
    const ws = await sendingWorkspace("tpl-send.test");
    const templateId = await createTemplate(ws.token, RECEIPT, true);
    const body = { to: "ada@example.com", template: { id: templateId, variables: { ORDER: 9 } } };
    const headers = { "Idempotency-Key": "order-9" };
    const first = await callJson<Email>("POST", "/v1/emails", { token: ws.token, body, headers });
    expect(first.status).toBe(200);
    await callJson("DELETE", `/v1/templates/${templateId}`, { token: ws.token });
    const again = await callJson<Email>("POST", "/v1/emails", { token: ws.token, body, headers });
    expect(again).toMatchObject({ status: 200, body: { id: first.body.id } });
    const fresh = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body,
      headers: { "Idempotency-Key": "order-9b" },
    });
    expect(fresh.status).toBe(404);
    expect(
      (await callJson<Email>("GET", `/v1/emails/${first.body.id}`, { token: ws.token })).body.template,
    ).toMatchObject({
      id: templateId,
    });
  });

  it("uses the published version, or one named; refuses drafts, unpublished and unknown templates", async () => {
    const ws = await sendingWorkspace("tpl-send.test");
    const templateId = await createTemplate(ws.token, RECEIPT, true);
    const v1 = (
      await callJson<{ current_version_id: string }>("GET", `/v1/templates/${templateId}`, {
        token: ws.token,
      })
    ).body.current_version_id;
    await callJson("PATCH", `/v1/templates/${templateId}`, {
      token: ws.token,
      body: { subject: "Draft {{ORDER}}" },
    });
    const draft = (
      await callJson<{ current_version_id: string }>("GET", `/v1/templates/${templateId}`, {
        token: ws.token,
      })
    ).body.current_version_id;

    const send = (template: Record<string, unknown>) =>
      callJson<Email & { code?: string }>("POST", "/v1/emails", {
        token: ws.token,
        body: { to: "ada@example.com", template },
      });
    const published = await send({ id: templateId, variables: { ORDER: 1 } });
    expect(
      (await callJson<Email>("GET", `/v1/emails/${published.body.id}`, { token: ws.token })).body,
    ).toMatchObject({
      subject: "Order 1",
      template: { id: templateId, version_id: v1 },
    });
    const named = await send({ id: templateId, version_id: v1, variables: { ORDER: 2 } });
    expect(named.status).toBe(200);
    expect((await send({ id: templateId, version_id: draft, variables: { ORDER: 3 } })).body).toMatchObject({
      code: "template_version_not_published",
    });
    const unpublished = await createTemplate(ws.token, { ...RECEIPT, alias: "never" });
    const notPublished = await send({ id: unpublished, variables: { ORDER: 4 } });
    expect(notPublished).toMatchObject({ status: 422, body: { code: "template_not_published" } });
    expect((await send({ id: "nope", variables: {} })).status).toBe(404);
    const other = await sendingWorkspace("tpl-other.test");
    const theirs = await callJson("POST", "/v1/emails", {
      token: other.token,
      body: { to: "ada@example.com", template: { id: templateId, variables: { ORDER: 5 } } },
    });
    expect(theirs.status).toBe(404);
    const both = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        to: "ada@example.com",
        html: "<p>x</p>",
        template: { id: templateId, variables: { ORDER: 6 } },
      },
    });
    expect(both.status).toBe(400);
    const noFrom = await createTemplate(ws.token, { name: "No from", html: "<p>x</p>", subject: "s" }, true);
    const missingFrom = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { to: "ada@example.com", template: { id: noFrom } },
    });
    expect(missingFrom).toMatchObject({ status: 400, body: { details: [{ path: "body.from" }] } });
  });
});
