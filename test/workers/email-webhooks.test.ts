import { describe, expect, it } from "vitest";
import { createEndpoint, type EndpointBody } from "./email-webhooks-helpers";
import { addKey, call, callJson, errorBody, seedWorkspace } from "./helpers";
import { endpoint } from "./webhook-helpers";

describe("email event webhooks: endpoints", () => {
  it("creates, reads, lists, updates and deletes an endpoint with a generated secret", async () => {
    const ws = await seedWorkspace();
    const hook = endpoint();
    const created = await createEndpoint(ws.token, {
      url: hook.url,
      events: ["email.delivered", "email.bounced"],
    });
    expect(created).toMatchObject({
      id: expect.stringMatching(/^whk_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: hook.url,
      events: ["email.delivered", "email.bounced"],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      disabled_reason: null,
    });
    // The secret is stored encrypted, never as sent.
    const { env } = await import("cloudflare:workers");
    const stored = await env.DB_2.prepare("SELECT secret FROM webhook_endpoints WHERE id = ?")
      .bind(created.id)
      .first<{ secret: string }>();
    expect(stored?.secret).not.toContain(created.secret);

    const read = await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: ws.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created);

    const second = await createEndpoint(ws.token, {
      url: endpoint().url,
      events: ["email.sent"],
      enabled: false,
    });
    const reader = await addKey(ws.accountId, "read");
    const list = await callJson<{ data: EndpointBody[]; pagination: unknown }>(
      "GET",
      "/v1/webhooks?limit=1",
      {
        token: reader.token,
      },
    );
    expect(list.status).toBe(200);
    expect(list.body.data.map((e) => e.id)).toEqual([second.id]);
    expect(list.body.pagination).toEqual({ limit: 1, offset: 0, total: 2 });

    const patched = await callJson<EndpointBody>("PATCH", `/v1/webhooks/${created.id}`, {
      token: ws.token,
      body: { events: ["email.opened"], enabled: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ events: ["email.opened"], enabled: false, secret: created.secret });

    const deleted = await callJson("DELETE", `/v1/webhooks/${created.id}`, { token: ws.token });
    expect(deleted).toMatchObject({ status: 200, body: { id: created.id, deleted: true } });
    expect((await call("GET", `/v1/webhooks/${created.id}`, { token: ws.token })).status).toBe(404);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const ws = await seedWorkspace();
    const cases: Array<[unknown, string]> = [
      [{ url: "https://example.com/h", events: [] }, "body.events"],
      [{ url: "https://example.com/h", events: ["email.nope"] }, "body.events.0"],
      [{ url: "https://example.com/h", events: ["email.sent", "email.sent"] }, "body.events"],
      [{ url: "https://example.com/h", events: ["webhook.test"] }, "body.events.0"],
      [{ url: "ftp://example.com/h", events: ["email.sent"] }, "body.url"],
      [{ url: "https://10.0.0.1/h", events: ["email.sent"] }, "body.url"],
      [{ url: "https://example.com/h", events: ["email.sent"], secret: "whsec_x" }, "body"],
    ];
    for (const [body, path] of cases) {
      const { status, body: answer } = await callJson<{ error: string; details: Array<{ path: string }> }>(
        "POST",
        "/v1/webhooks",
        { token: ws.token, body },
      );
      expect(status, JSON.stringify(body)).toBe(400);
      expect(answer).toMatchObject(errorBody("Invalid request", "validation_error"));
      expect(answer.details.map((d) => d.path)).toContain(path);
    }
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const empty = await call("PATCH", `/v1/webhooks/${created.id}`, { token: ws.token, body: {} });
    expect(empty.status).toBe(400);
    const badUrl = await call("PATCH", `/v1/webhooks/${created.id}`, {
      token: ws.token,
      body: { url: "https://192.168.1.1/x" },
    });
    expect(badUrl.status).toBe(400);
  });

  it("needs admin to write and read to list", async () => {
    const ws = await seedWorkspace();
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    const writer = await addKey(ws.accountId, "write");
    const reader = await addKey(ws.accountId, "read");
    for (const token of [writer.token, reader.token]) {
      expect(
        (await call("POST", "/v1/webhooks", { token, body: { url: endpoint().url, events: ["email.sent"] } }))
          .status,
      ).toBe(403);
      expect(
        (await call("PATCH", `/v1/webhooks/${created.id}`, { token, body: { enabled: false } })).status,
      ).toBe(403);
      expect((await call("DELETE", `/v1/webhooks/${created.id}`, { token })).status).toBe(403);
      expect((await call("POST", `/v1/webhooks/${created.id}/test`, { token })).status).toBe(403);
    }
    expect((await call("GET", "/v1/webhooks", { token: reader.token })).status).toBe(200);
    expect((await call("GET", `/v1/webhooks/${created.id}/deliveries`, { token: reader.token })).status).toBe(
      200,
    );
  });

  it("answers 404 for another workspace's endpoint, on every route", async () => {
    const owner = await seedWorkspace();
    const other = await seedWorkspace();
    const created = await createEndpoint(owner.token, { url: endpoint().url, events: ["email.sent"] });
    const token = other.token;
    const answers = [
      await call("GET", `/v1/webhooks/${created.id}`, { token }),
      await call("PATCH", `/v1/webhooks/${created.id}`, { token, body: { enabled: false } }),
      await call("DELETE", `/v1/webhooks/${created.id}`, { token }),
      await call("POST", `/v1/webhooks/${created.id}/test`, { token }),
      await call("GET", `/v1/webhooks/${created.id}/deliveries`, { token }),
      await call("GET", "/v1/webhooks/whk_nothing", { token: owner.token }),
    ];
    expect(answers.map((res) => res.status)).toEqual([404, 404, 404, 404, 404, 404]);
    const list = await callJson<{ data: unknown[] }>("GET", "/v1/webhooks", { token });
    expect(list.body.data).toEqual([]);
    // The owner's endpoint is untouched.
    const read = await callJson<EndpointBody>("GET", `/v1/webhooks/${created.id}`, { token: owner.token });
    expect(read.body.enabled).toBe(true);
  });
});
