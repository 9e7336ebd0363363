import { describe, expect, it } from "vitest";
import type { Db } from "../../src/db/client";
import { publishTemplate, removeTemplate } from "../../src/features/templates/templates.service";
import { callJson, db, errorBody, rowCount, seedWorkspace, sendingWorkspace } from "./helpers";
import { contentWithoutIds, createTemplate, sent } from "./templates-helpers";
import { FRAME, publish } from "./templates-layouts-helpers";

type Email = Record<string, unknown> & { id: string; status: string };
type Template = Record<string, unknown> & { id: string; current_version_id: string };

const RECEIPT = {
  name: "Receipt",
  alias: "receipt",
  from: "Acme <orders@tpl-layout.test>",
  subject: "Order {{ORDER}}",
  html: "<p>Hi {{NAME}}, order {{ORDER}}: {{{NOTE}}}</p>",
  text: "Hi {{NAME}}, order {{ORDER}}",
  layout_id: "frame",
  variables: [
    { key: "NAME", type: "string", fallback_value: "there" },
    { key: "ORDER", type: "number" },
    { key: "NOTE", type: "string", fallback_value: "" },
  ],
};

const versionOf = async (token: string, id: string) =>
  (await callJson<Template>("GET", `/v1/templates/${id}`, { token })).body.current_version_id;

describe("sending through a template with a layout", () => {
  it("builds the same bytes as the framed HTML sent directly, and records the layout's version", async () => {
    const ws = await sendingWorkspace("tpl-layout.test");
    const frame = await createTemplate(ws.token, FRAME, true);
    const id = await createTemplate(ws.token, RECEIPT, true);
    const variables = {
      NAME: "Ada & co",
      ORDER: 42,
      NOTE: "{{COMPANY}}",
      UNSUBSCRIBE_URL: "https://u.test/?a=1&b=2",
    };
    const viaTemplate = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: { to: "ada@example.com", template: { id: "receipt", variables } },
    });
    expect(viaTemplate.status).toBe(200);
    const html =
      '<header>Acme &amp; Co</header>\n<main><p>Hi Ada &amp; co, order 42: {{COMPANY}}</p></main>\n<footer><a href="https://u.test/?a=1&b=2">unsubscribe</a></footer>';
    const text = "Hi Ada & co, order 42\n--\nAcme & Co: https://u.test/?a=1&b=2";
    const direct = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: { from: RECEIPT.from, to: "ada@example.com", subject: "Order 42", html, text },
    });
    expect(direct.status).toBe(200);

    const shown = await sent(ws.token, viaTemplate.body.id);
    const layoutVersion = await versionOf(ws.token, frame);
    expect(shown).toMatchObject({
      subject: "Order 42",
      html,
      text,
      template: {
        id,
        version_id: await versionOf(ws.token, id),
        layout: { id: frame, version_id: layoutVersion },
      },
    });
    await sent(ws.token, direct.body.id);
    expect(await contentWithoutIds(ws.token, viaTemplate.body.id)).toBe(
      await contentWithoutIds(ws.token, direct.body.id),
    );

    // The layout's published version at send time: a new footer reaches every template at once.
    await callJson("PATCH", `/v1/templates/${frame}`, {
      token: ws.token,
      body: { html: "<div>{{{@content}}}</div><small>{{COMPANY}} {{{UNSUBSCRIBE_URL}}}</small>" },
    });
    expect((await publish(ws.token, frame)).status).toBe(200);
    const later = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: { to: "ada@example.com", template: { id, variables: { ORDER: 1, UNSUBSCRIBE_URL: "u" } } },
    });
    const laterShown = await sent(ws.token, later.body.id);
    expect(laterShown).toMatchObject({
      html: "<div><p>Hi there, order 1: </p></div><small>Acme &amp; Co u</small>",
      template: { layout: { id: frame, version_id: await versionOf(ws.token, frame) } },
    });
    expect(await versionOf(ws.token, frame)).not.toBe(layoutVersion);
    expect(
      (await callJson<Email>("GET", `/v1/emails/${viaTemplate.body.id}`, { token: ws.token })).body,
    ).toMatchObject({
      template: { layout: { version_id: layoutVersion } },
    });
  });

  it("checks the layout's variables with the template's (422 naming each), queuing nothing", async () => {
    const ws = await sendingWorkspace("tpl-layout.test");
    await createTemplate(ws.token, FRAME, true);
    await createTemplate(ws.token, RECEIPT, true);
    const refused = await callJson("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [
        { to: "ada@example.com", template: { id: "receipt", variables: { ORDER: 1, UNSUBSCRIBE_URL: "u" } } },
        {
          to: "bob@example.com",
          template: { id: "receipt", variables: { ORDER: 2, COMPANY: 3, COLOR: "red" } },
        },
      ],
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      ...errorBody("Template variables are invalid", "template_variables_invalid"),
      details: [
        { path: "body.1.template.variables.COLOR", message: "is not a variable of the template" },
        {
          path: "body.1.template.variables.UNSUBSCRIBE_URL",
          message: "is required: it has no fallback_value",
        },
        { path: "body.1.template.variables.COMPANY", message: "must be a string" },
      ],
    });

    const layoutSent = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { to: "ada@example.com", template: { id: "frame", variables: { UNSUBSCRIBE_URL: "u" } } },
    });
    expect(layoutSent.status).toBe(422);
    expect(layoutSent.body).toMatchObject(errorBody("Template is a layout", "template_is_layout"));
    expect(await rowCount("emails", ws.accountId)).toBe(0);
  });
});

describe("rendering with a layout", () => {
  it("puts any version in the layout's published version and reports both's variables", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME);
    const id = await createTemplate(ws.token, {
      ...RECEIPT,
      // A key both declare is one variable: the template's declaration (and fallback) wins.
      variables: [...RECEIPT.variables, { key: "COMPANY", type: "string", fallback_value: "Receipts Inc" }],
    });
    const early = await callJson("POST", `/v1/templates/${id}/render`, { token: ws.token, body: {} });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ code: "template_layout_not_published" });

    await publish(ws.token, frame);
    const rendered = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { variables: { NAME: "<Ada>", EXTRA: 1 } },
    });
    expect(rendered.body).toEqual({
      object: "rendered_template",
      template_id: id,
      version_id: await versionOf(ws.token, id),
      layout: { id: frame, version_id: await versionOf(ws.token, frame) },
      subject: "Order {{ORDER}}",
      html: '<header>Receipts Inc</header>\n<main><p>Hi &lt;Ada&gt;, order {{ORDER}}: </p></main>\n<footer><a href="{{UNSUBSCRIBE_URL}}">unsubscribe</a></footer>',
      text: "Hi <Ada>, order {{ORDER}}\n--\nReceipts Inc: {{UNSUBSCRIBE_URL}}",
      missing: ["ORDER", "UNSUBSCRIBE_URL"],
      unused: ["EXTRA"],
    });
    const mistyped = await callJson("POST", `/v1/templates/${id}/render`, {
      token: ws.token,
      body: { variables: { UNSUBSCRIBE_URL: 5 } },
    });
    expect(mistyped.body).toMatchObject({
      code: "template_variables_invalid",
      details: [{ path: "body.variables.UNSUBSCRIBE_URL", message: "must be a string" }],
    });

    const layout = await callJson("POST", `/v1/templates/${frame}/render`, {
      token: ws.token,
      body: { variables: { UNSUBSCRIBE_URL: "https://u.test" } },
    });
    expect(layout.body).toMatchObject({
      layout: null,
      html: '<header>Acme &amp; Co</header>\n<main>{{{@content}}}</main>\n<footer><a href="https://u.test">unsubscribe</a></footer>',
      missing: [],
    });
  });
});

/**
 * The workspace's database, where `meanwhile` (another request) runs just before the next write
 * batch: a write landing between a request's read and the write it made from that read.
 */
function interleaved(meanwhile: () => Promise<unknown>): Db {
  const real = db();
  let pending = true;
  const client = new Proxy(real.$client, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          if (pending) {
            pending = false;
            await meanwhile();
          }
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return new Proxy(real, {
    get: (target, prop) => (prop === "$client" ? client : Reflect.get(target, prop)),
  });
}

describe("publishing a template while its layout is removed", () => {
  it("refuses the publish when the layout went between its check and its write (422)", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME, true);
    const id = await createTemplate(ws.token, { ...RECEIPT, layout_id: frame });
    const removed: number[] = [];
    const ctx = {
      db: interleaved(async () => {
        removed.push((await callJson("DELETE", `/v1/templates/${frame}`, { token: ws.token })).status);
      }),
      accountId: ws.accountId,
      now: Date.now(),
    };
    await expect(publishTemplate(ctx, id)).rejects.toMatchObject({ code: "template_layout_invalid" });
    expect(removed).toEqual([200]);
    expect((await callJson("GET", `/v1/templates/${id}`, { token: ws.token })).body).toMatchObject({
      status: "draft",
    });
  });

  it("refuses the removal when a publish using the layout came between (409)", async () => {
    const ws = await seedWorkspace();
    const frame = await createTemplate(ws.token, FRAME, true);
    const id = await createTemplate(ws.token, { ...RECEIPT, layout_id: frame });
    const ctx = {
      db: interleaved(() => publish(ws.token, id)),
      accountId: ws.accountId,
      now: Date.now(),
    };
    await expect(removeTemplate(ctx, frame)).rejects.toMatchObject({ code: "layout_in_use" });
    expect((await callJson("GET", `/v1/templates/${id}`, { token: ws.token })).body).toMatchObject({
      status: "published",
      layout_id: frame,
    });
    expect((await callJson("GET", `/v1/templates/${frame}`, { token: ws.token })).status).toBe(200);
  });
});
