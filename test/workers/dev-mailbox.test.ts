import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { inDevelopment, type MailboxEntry, mailboxEntriesOf } from "./dev-mailbox-helpers";
import { callJson, eventually, seedWorkspace, sendingWorkspace } from "./helpers";
import { sentSystemEmail } from "./people-helpers";

type Mailbox = { data: MailboxEntry[] };

// The tests wait for real sends through the queue; on a loaded machine that outlasts 5 s.
vi.setConfig({ testTimeout: 30_000 });

describe("the development mailbox", () => {
  it("lists every captured message, system mail included, newest first, in JSON and HTML", async () => {
    const ws = await seedWorkspace();
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "first@example.com", role: "agent" },
    });
    const first = await sentSystemEmail(ws, "first@example.com");
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "second@example.com", role: "agent" },
    });
    const second = await sentSystemEmail(ws, "second@example.com");

    const json = await inDevelopment("/_dev/mailbox.json");
    expect(json.status).toBe(200);
    const { data } = (await json.json()) as Mailbox;
    const ids = data.map((m) => m.id);
    expect(ids.indexOf(second.summary.id)).toBeLessThan(ids.indexOf(first.summary.id));
    expect(data.find((m) => m.id === first.summary.id)).toEqual({
      id: first.summary.id,
      from: env.SYSTEM_FROM,
      to: ["first@example.com"],
      subject: first.summary.subject,
      created_at: expect.stringMatching(/Z$/),
      recipient: "first@example.com",
      return_path: expect.stringMatching(/^bounces\+[0-9a-z]{54}@/),
      raw: expect.stringMatching(/^Return-Path: <bounces\+[0-9a-z]{54}@[^>]+>\r\n/),
    });
    const entry = data.find((m) => m.id === first.summary.id);
    // The copy is the kept message, Return-Path on top: the signed bytes are untouched.
    expect(entry?.raw).toBe(`Return-Path: <${entry?.return_path}>\r\n${first.raw}`);

    const page = await inDevelopment("/_dev/mailbox");
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Security-Policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(`id="${second.summary.id}-`);
    expect(html).toContain("first@example.com");
    expect(html).not.toMatch(/<a href="http[^"]*\/invitations\//); // messages are shown as text, never rendered
  });

  it("shows one entry per envelope, each with its own Return-Path, the signed bytes the same", async () => {
    const ws = await sendingWorkspace("mailbox.test");
    const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@mailbox.test",
        to: ["one@example.com"],
        cc: ["two@example.com"],
        bcc: ["three@example.com"],
        subject: "Three envelopes",
        text: "Hello",
      },
    });
    const entries = await eventually(async () => {
      const found = await mailboxEntriesOf(body.id);
      return found.length === 3 ? found : null;
    });
    expect(entries.map((e) => e.recipient).sort()).toEqual([
      "one@example.com",
      "three@example.com",
      "two@example.com",
    ]);
    const returnPaths = new Set(entries.map((e) => e.return_path));
    expect(returnPaths.size).toBe(3);
    for (const e of entries) {
      expect(e.return_path).toMatch(/^bounces\+[0-9a-z]{54}@mailbox\.test$/);
      expect(e.raw.startsWith(`Return-Path: <${e.return_path}>\r\nDKIM-Signature:`)).toBe(true);
      expect(e.raw.toLowerCase()).not.toContain("three@example.com");
    }
    const signed = new Set(entries.map((e) => e.raw.slice(e.raw.indexOf("\r\n") + 2)));
    expect(signed.size).toBe(1);
  });

  it("does not exist outside development", async () => {
    for (const path of ["/_dev/mailbox", "/_dev/mailbox.json"]) {
      const res = await callJson("GET", path);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: "route_not_found" });
    }
  });
});
