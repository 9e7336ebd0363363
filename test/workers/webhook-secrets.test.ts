import { describe, expect, it } from "vitest";
import { AutomationListSchema, AutomationSchema } from "../../src/features/automations/automations.schemas";
import {
  EmailWebhookListSchema,
  EmailWebhookSchema,
} from "../../src/features/email-webhooks/email-webhooks.schemas";
import { InboxListSchema, InboxSchema } from "../../src/features/inboxes/inboxes.schemas";
import { createAutomation } from "./automations-api-helpers";
import { createEndpoint } from "./email-webhooks-helpers";
import { addKey, callJson } from "./helpers";
import { awaitDeliveries, endpoint, inboxWithWebhooks } from "./webhook-helpers";

/**
 * Signing secrets by key level. Email event webhooks (written by admin keys): the secret goes only
 * to admin keys. Inbox webhooks and automations (written by write keys, which may replace any
 * secret, and whose round trip keeps a secret by sending it back): write and admin keys see it.
 * A read key never receives one, anywhere.
 */

type Parsable = { safeParse(value: unknown): { success: boolean; error?: unknown } };

/** GETs `path` with `token`, and checks the answer against the schema the OpenAPI is made from. */
async function read(path: string, token: string, schema: Parsable) {
  const { status, body } = await callJson<Record<string, unknown>>("GET", path, { token });
  expect(status, JSON.stringify(body)).toBe(200);
  const parsed = schema.safeParse(body);
  expect(parsed.error, JSON.stringify(body)).toBeUndefined();
  return { body, text: JSON.stringify(body) };
}

async function keysOf(accountId: string) {
  return { read: await addKey(accountId, "read"), write: await addKey(accountId, "write") };
}

describe("webhook signing secrets: who sees them", () => {
  it("email event webhooks: admin keys only; read and write keys get secret null", async () => {
    const { ws } = await inboxWithWebhooks([]);
    const keys = await keysOf(ws.accountId);
    const created = await createEndpoint(ws.token, { url: endpoint().url, events: ["email.sent"] });
    expect(created.secret).toMatch(/^whsec_/);

    for (const token of [keys.read.token, keys.write.token]) {
      const one = await read(`/v1/webhooks/${created.id}`, token, EmailWebhookSchema);
      expect(one.text).not.toContain("whsec_");
      expect(one.body).toEqual({ ...created, secret: null });
      const list = await read("/v1/webhooks", token, EmailWebhookListSchema);
      expect(list.text).not.toContain("whsec_");
      expect((list.body.data as unknown[])[0]).toEqual({ ...created, secret: null });
    }
    const admin = await read(`/v1/webhooks/${created.id}`, ws.token, EmailWebhookSchema);
    expect(admin.body).toEqual(created);
    const adminList = await read("/v1/webhooks", ws.token, EmailWebhookListSchema);
    expect((adminList.body.data as unknown[])[0]).toEqual(created);
    const patched = await callJson<{ secret: string }>("PATCH", `/v1/webhooks/${created.id}`, {
      token: ws.token,
      body: { enabled: false },
    });
    expect(patched.body.secret).toBe(created.secret);
  });

  it("inbox webhooks: write and admin keys see the secret they must send back; a read key gets null", async () => {
    const { ws, inbox } = await inboxWithWebhooks([
      { url: "https://hooks.example.com/a", events: ["ticket.created"] },
    ]);
    const keys = await keysOf(ws.accountId);
    const secret = inbox.webhooks[0]?.secret ?? "";
    expect(secret).toMatch(/^whsec_/);

    const one = await read(`/v1/inboxes/${inbox.id}`, keys.read.token, InboxSchema);
    expect(one.text).not.toContain("whsec_");
    expect(one.body.webhooks).toEqual([
      { url: "https://hooks.example.com/a", events: ["ticket.created"], enabled: true, secret: null },
    ]);
    const list = await read("/v1/inboxes", keys.read.token, InboxListSchema);
    expect(list.text).not.toContain("whsec_");

    for (const token of [keys.write.token, ws.token]) {
      const seen = await read(`/v1/inboxes/${inbox.id}`, token, InboxSchema);
      expect((seen.body.webhooks as Array<{ secret: string }>)[0]?.secret).toBe(secret);
      const listed = await read("/v1/inboxes", token, InboxListSchema);
      expect(listed.text).toContain(secret);
    }
  });

  it("automations: write and admin keys see the secret; a read key gets null", async () => {
    const { ws } = await inboxWithWebhooks([]);
    const keys = await keysOf(ws.accountId);
    const created = await createAutomation(keys.write.token);
    expect(created.secret).toMatch(/^whsec_/);

    const one = await read(`/v1/automations/${created.id}`, keys.read.token, AutomationSchema);
    expect(one.text).not.toContain("whsec_");
    expect(one.body).toEqual({ ...created, secret: null });
    const list = await read("/v1/automations", keys.read.token, AutomationListSchema);
    expect(list.text).not.toContain("whsec_");
    expect((list.body.data as unknown[])[0]).toEqual({ ...created, secret: null });

    for (const token of [keys.write.token, ws.token]) {
      expect((await read(`/v1/automations/${created.id}`, token, AutomationSchema)).body).toEqual(created);
    }
  });

  it("automation webhook steps: a read key sees their header names, never the values", async () => {
    const { ws } = await inboxWithWebhooks([]);
    const keys = await keysOf(ws.accountId);
    const credential = `Bearer receiver-token-${crypto.randomUUID()}`;
    const step = {
      type: "webhook",
      url: "https://hooks.example.com/in",
      headers: { Authorization: credential, "X-Team": "growth" },
    };
    const created = await createAutomation(keys.write.token, { steps: [step] });
    const one = await read(`/v1/automations/${created.id}`, keys.read.token, AutomationSchema);
    const list = await read("/v1/automations", keys.read.token, AutomationListSchema);
    for (const seen of [one.text, list.text]) {
      expect(seen).not.toContain(credential);
      expect(seen).not.toContain("growth");
    }
    expect((one.body.steps as Array<{ headers: Record<string, string> }>)[0]?.headers).toEqual({
      Authorization: "[redacted]",
      "X-Team": "[redacted]",
    });
    // The keys that write the automation read the values they wrote.
    const written = await read(`/v1/automations/${created.id}`, keys.write.token, AutomationSchema);
    expect(written.text).toContain(credential);
  });

  it("inbox events carry no secret: not in the delivery, not in the event stream a read key sees", async () => {
    const hook = endpoint();
    const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: ["inbox.updated"] }]);
    const keys = await keysOf(ws.accountId);
    const secret = inbox.webhooks[0]?.secret ?? "";
    const patched = await callJson("PATCH", `/v1/inboxes/${inbox.id}`, {
      token: ws.token,
      body: { name: "Help desk", webhooks: [{ url: hook.url, events: ["inbox.updated"], secret }] },
    });
    expect(patched.status).toBe(200);
    const [delivered] = await awaitDeliveries(hook.path, 1);
    expect(JSON.parse(delivered?.body ?? "{}")).toMatchObject({
      event: "inbox.updated",
      data: { inbox: { id: inbox.id, name: "Help desk" } },
    });
    expect(delivered?.body).not.toContain("whsec_");

    const { status, body } = await callJson("GET", `/v1/accounts/${ws.accountId}/events`, {
      token: keys.read.token,
    });
    expect(status).toBe(200);
    expect(JSON.stringify(body)).toContain("inbox.updated");
    expect(JSON.stringify(body)).not.toContain("whsec_");
  });
});
