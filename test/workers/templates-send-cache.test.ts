import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { d1RoundTrips } from "../../src/db/counting-d1";
import worker from "../../src/index";
import { call, callJson, sendingWorkspace } from "./helpers";
import { createTemplate, sent } from "./templates-helpers";

type Email = Record<string, unknown> & { id: string; status: string };

const DOMAIN = "tpl-cache.test";
const RECEIPT = {
  name: "Receipt",
  alias: "receipt",
  from: `Acme <orders@${DOMAIN}>`,
  subject: "Order {{ORDER}}",
  html: "<p>Order {{ORDER}}, version one.</p>",
  variables: [{ key: "ORDER", type: "number" }],
};

const republish = async (token: string, id: string, body: Record<string, unknown>) => {
  expect((await call("PATCH", `/v1/templates/${id}`, { token, body })).status).toBe(200);
  expect((await call("POST", `/v1/templates/${id}/publish`, { token })).status).toBe(200);
};

/** POST /v1/emails through the Worker with its D1 round trips counted. */
async function counted(token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const before = d1RoundTrips().by_entry.fetch;
  const ctx = createExecutionContext();
  const request = new Request("http://127.0.0.1:8787/v1/emails", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const vars = { ENVIRONMENT: "development", D1_ROUND_TRIPS: "count" };
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return {
    status: res.status,
    body: (await res.json()) as Email,
    roundTrips: d1RoundTrips().by_entry.fetch - before,
  };
}

describe("a template sent again is not read again", () => {
  it("costs a send without a key the round trips of the same HTML sent directly, once read", async () => {
    const ws = await sendingWorkspace(DOMAIN);
    await createTemplate(ws.token, RECEIPT, true);
    const plain = { from: RECEIPT.from, subject: "Order 1", html: "<p>Order 1, version one.</p>" };
    const direct = { ...(await counted(ws.token, { to: "ada@example.com", ...plain })), sent: plain };
    expect(direct.status).toBe(200);
    const templated = { to: "ada@example.com", template: { id: "receipt", variables: { ORDER: 1 } } };
    const first = await counted(ws.token, templated);
    expect(first.status).toBe(200);
    expect(first.roundTrips).toBe(direct.roundTrips + 1);
    const again = await counted(ws.token, templated);
    expect(again.status).toBe(200);
    expect(again.roundTrips).toBe(direct.roundTrips);
    // A key reads its stored answer first, one round trip more for any send: the templates are
    // read in that same round trip.
    const key = () => ({ "Idempotency-Key": crypto.randomUUID() });
    const directKeyed = await counted(ws.token, { ...templated, template: undefined, ...direct.sent }, key());
    const keyed = await counted(ws.token, templated, key());
    expect([directKeyed.status, keyed.status]).toEqual([200, 200]);
    expect(keyed.roundTrips).toBe(directKeyed.roundTrips);
    expect(keyed.roundTrips).toBe(direct.roundTrips + 1);
  });

  it("sends what is published now, after a republish, an alias moved, a layout republished or a removal", async () => {
    const ws = await sendingWorkspace(DOMAIN);
    const { token } = ws;
    const layout = await createTemplate(
      token,
      { name: "Frame", type: "layout", html: "<div>Frame one {{{@content}}}</div>" },
      true,
    );
    const receipt = await createTemplate(token, { ...RECEIPT, layout_id: layout }, true);
    const send = async (ref: string) => {
      const res = await callJson<Email>("POST", "/v1/emails", {
        token,
        body: { to: "ada@example.com", template: { id: ref, variables: { ORDER: 7 } } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return sent(token, res.body.id);
    };
    expect((await send("receipt")).html).toBe("<div>Frame one <p>Order 7, version one.</p></div>");
    expect((await send("receipt")).html).toBe("<div>Frame one <p>Order 7, version one.</p></div>");

    await republish(token, receipt, { html: "<p>Order {{ORDER}}, version two.</p>" });
    const two = await send("receipt");
    expect(two.html).toBe("<div>Frame one <p>Order 7, version two.</p></div>");
    const current = await callJson<{ current_version_id: string }>("GET", `/v1/templates/${receipt}`, {
      token,
    });
    expect(two.template).toMatchObject({ id: receipt, version_id: current.body.current_version_id });

    await republish(token, layout, { html: "<div>Frame two {{{@content}}}</div>" });
    expect((await send("receipt")).html).toBe("<div>Frame two <p>Order 7, version two.</p></div>");

    // The alias now names another template.
    expect((await call("DELETE", `/v1/templates/${receipt}`, { token })).status).toBe(200);
    await createTemplate(token, { ...RECEIPT, html: "<p>Order {{ORDER}}, another template.</p>" }, true);
    expect((await send("receipt")).html).toBe("<p>Order 7, another template.</p>");
    const gone = await callJson("POST", "/v1/emails", {
      token,
      body: { to: "ada@example.com", template: { id: receipt, variables: { ORDER: 7 } } },
    });
    expect(gone.status).toBe(404);

    // Each accepted send wrote one email, counted once.
    const list = await callJson<{ data: unknown[] }>("GET", "/v1/emails?limit=100", { token });
    expect(list.body.data).toHaveLength(5);
  });

  it("never refuses from a kept version what the version published now accepts", async () => {
    const ws = await sendingWorkspace(DOMAIN);
    const { token } = ws;
    const receipt = await createTemplate(token, RECEIPT, true);
    const send = (variables: Record<string, unknown>) =>
      callJson<Email>("POST", "/v1/emails", {
        token,
        body: { to: "ada@example.com", template: { id: "receipt", variables } },
      });
    expect((await send({ ORDER: 1 })).status).toBe(200);
    await republish(token, receipt, {
      html: "<p>Order {{ORDER}} in {{COLOR}}.</p>",
      variables: [...RECEIPT.variables, { key: "COLOR", type: "string" }],
    });
    const withColor = await send({ ORDER: 2, COLOR: "red" });
    expect(withColor.status, JSON.stringify(withColor.body)).toBe(200);
    expect((await sent(token, withColor.body.id)).html).toBe("<p>Order 2 in red.</p>");
    // And what the version published now refuses is refused.
    expect((await send({ ORDER: 3 })).status).toBe(422);
  });

  it("counts a send refused for a suppressed recipient once when the template changed meanwhile", async () => {
    const ws = await sendingWorkspace(DOMAIN);
    const { token } = ws;
    expect(
      (await call("POST", "/v1/suppressions", { token, body: { email: "gone@example.net" } })).status,
    ).toBe(201);
    const receipt = await createTemplate(token, RECEIPT, true);
    const body = (to: string) => ({ to, template: { id: "receipt", variables: { ORDER: 7 } } });
    expect((await callJson("POST", "/v1/emails", { token, body: body("ada@example.com") })).status).toBe(200);
    await republish(token, receipt, { subject: "Your order {{ORDER}}" });
    const refused = await callJson<{ code: string }>("POST", "/v1/emails", {
      token,
      body: body("gone@example.net"),
    });
    expect(refused.status).toBe(422);
    const day = new Date().toISOString().slice(0, 10);
    const next = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const report = await callJson<{ totals: { suppressed: number; accepted: number } }>(
      "GET",
      `/v1/reports/email?from=${day}&to=${next}`,
      { token },
    );
    expect(report.body.totals).toMatchObject({ suppressed: 1, accepted: 1 });
  });

  it("never answers one workspace's send from another's template", async () => {
    const ws = await sendingWorkspace(DOMAIN);
    const other = await sendingWorkspace(`other-${DOMAIN}`);
    const receipt = await createTemplate(ws.token, RECEIPT, true);
    const body = { to: "ada@example.com", template: { id: receipt, variables: { ORDER: 7 } } };
    expect((await callJson("POST", "/v1/emails", { token: ws.token, body })).status).toBe(200);
    expect((await callJson("POST", "/v1/emails", { token: ws.token, body })).status).toBe(200);
    expect((await callJson("POST", "/v1/emails", { token: other.token, body })).status).toBe(404);
  });
});
