import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, eventsOf } from "./helpers";
import {
  CUSTOMER,
  deliver,
  droppedOf,
  FIXTURES,
  fill,
  inboundWorkspace,
  messagesOf,
  ticketsOf,
} from "./inbound-helpers";
import { awaitDeliveries, endpoint, envelopesAt, inboxWithWebhooks } from "./webhook-helpers";

const storageOf = async (ws: { accountId: string; token: string }) =>
  (
    await callJson<{ quotas: Record<string, { current: number }> }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    )
  ).body.quotas.storage_bytes?.current;

describe("a new mail to an inbox", () => {
  it("opens a ticket for the sender, with the mail as its first customer message", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress.toUpperCase(), ID: "plain-1" });
    // Addresses are matched in any case.
    expect(await deliver(raw, { to: inbox.emailAddress.toUpperCase() })).toEqual({ outcome: "accepted" });

    const [ticket, ...others] = await ticketsOf(ws.token);
    expect(others).toEqual([]);
    expect(ticket).toMatchObject({
      subject: "Printer on fire",
      status: "open",
      message_count: 1,
      customer: { email: CUSTOMER, name: "Ada Lovelace" },
    });
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    expect(message).toMatchObject({
      type: "customer",
      direction: "inbound",
      status: "received",
      from: CUSTOMER,
      to: [inbox.emailAddress],
      cc: [],
      subject: "Printer on fire",
      body_text: "Hello,\n\nMy printer is on fire. What should I do?\n\nAda\n",
      body_html: null,
      stripped_text: "Hello,\n\nMy printer is on fire. What should I do?\n\nAda",
      auto_submitted: false,
      email_message_id: "<plain-1@mail.example.com>",
      attachments: [],
    });
  });

  it("keeps the MIME byte for byte at GET /v1/messages/{id}/raw; 404 for other messages and workspaces", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });
    await deliver(raw, { to: inbox.emailAddress });
    const [ticket] = await ticketsOf(ws.token);
    const [message] = await messagesOf(ws.token, ticket?.id as string);

    const res = await call("GET", `/v1/messages/${message?.id}/raw`, { token: ws.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("message/rfc822");
    expect(await res.text()).toBe(raw);

    const note = await callJson<{ id: string }>("POST", `/v1/tickets/${ticket?.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "internal" },
    });
    const noRaw = await callJson("GET", `/v1/messages/${note.body.id}/raw`, { token: ws.token });
    expect(noRaw.status).toBe(404);
    expect(noRaw.body.code).toBe("raw_not_found");
    const stranger = (await inboundWorkspace()).ws;
    expect((await call("GET", `/v1/messages/${message?.id}/raw`, { token: stranger.token })).status).toBe(
      404,
    );
  });

  it("reads an HTML-only mail: the HTML as received, the display text taken from it", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(fill(FIXTURES.htmlOnly, { TO: inbox.emailAddress, FROM: "grace@example.com" }), {
      to: inbox.emailAddress,
      from: "grace@example.com",
    });
    const [ticket] = await ticketsOf(ws.token);
    expect(ticket?.customer).toMatchObject({ email: "grace@example.com", name: "Grace Hopper" });
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    expect(message?.body_text).toBeNull();
    expect(message?.body_html).toContain(
      "<p>The link in invoice #42 leads to a blank page &amp; nothing loads.</p>",
    );
    expect(message?.stripped_text).toBe(
      "Hello team,\n\nThe link in invoice #42 leads to a blank page & nothing loads.\n\nThanks,\nGrace",
    );
  });

  it("decodes ISO-8859-1, quoted-printable bodies and encoded-word headers", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const from = "francois@example.fr";
    await deliver(fill(FIXTURES.latin1, { TO: inbox.emailAddress, FROM: from }), {
      to: inbox.emailAddress,
      from,
    });
    const [ticket] = await ticketsOf(ws.token);
    expect(ticket?.subject).toBe("Problème de facturation");
    expect(ticket?.customer).toMatchObject({ email: from, name: "François Château" });
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    // The soft line break joins "accepté" back together.
    expect(message?.body_text).toContain(
      "J'ai reçu une facture erronée : le montant dépasse celui du devis accepté en octobre, et la TVA apparaît deux fois.",
    );
    expect(message?.body_text).toContain("Cordialement,\nFrançois");
  });

  it("keeps attachments and inline images as the message's files, counted in storage", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const before = await storageOf(ws);
    const raw = fill(FIXTURES.attachments, { TO: inbox.emailAddress });
    await deliver(raw, { to: inbox.emailAddress });
    const [ticket] = await ticketsOf(ws.token);
    const [message] = await messagesOf(ws.token, ticket?.id as string);
    expect(message?.body_html).toContain('<img src="cid:screenshot@mail.example.com"');
    expect(message?.attachments).toEqual([
      {
        id: expect.stringMatching(/^att_/),
        filename: "screenshot.png",
        content_type: "image/png",
        size: 70,
        content_id: "screenshot@mail.example.com",
      },
      {
        id: expect.stringMatching(/^att_/),
        filename: "invoice-42.pdf",
        content_type: "application/pdf",
        size: 77,
        content_id: null,
      },
    ]);
    const pdf = await call(
      "GET",
      `/v1/messages/${message?.id}/attachments/${message?.attachments[1]?.id}/content`,
      {
        token: ws.token,
      },
    );
    expect(await pdf.text()).toBe(
      "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
    );
    // The received bytes and the files both stay in R2, and both count.
    expect(await storageOf(ws)).toBe((before ?? 0) + raw.length + 70 + 77);

    const keys = await env.DB_2.prepare("SELECT key FROM message_attachments WHERE message_id = ?")
      .bind(message?.id)
      .all<{ key: string }>();
    const rawKey = (
      await env.DB_2.prepare("SELECT raw_key FROM messages WHERE id = ?")
        .bind(message?.id)
        .first<{ raw_key: string }>()
    )?.raw_key as string;
    expect((await call("DELETE", `/v1/tickets/${ticket?.id}`, { token: ws.token })).status).toBe(200);
    expect(await storageOf(ws)).toBe(before);
    for (const key of [...keys.results.map((r) => r.key), rawKey])
      expect(await env.FILES.head(key)).toBeNull();
  });

  it("fires ticket.created then message.created to the inbox's webhooks", async () => {
    const hook = endpoint();
    const address = `help-${crypto.randomUUID().slice(0, 8)}@acme.test`;
    const { ws } = await inboxWithWebhooks(
      [{ url: hook.url, events: ["ticket.created", "message.created"] }],
      {
        emailAddress: address,
      },
    );
    await deliver(fill(FIXTURES.plainText, { TO: address }), { to: address });
    const [ticket] = await ticketsOf(ws.token);

    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["ticket.created", "message.created"]);
    await awaitDeliveries(hook.path, 2);
    const envelopes = await envelopesAt(hook.path);
    expect(envelopes.map((e) => e.event).sort()).toEqual(["message.created", "ticket.created"]);
    const created = envelopes.find((e) => e.event === "ticket.created");
    expect(created?.data.ticket).toMatchObject({
      id: ticket?.id,
      subject: "Printer on fire",
      status: "open",
    });
    expect(created?.data.customer).toMatchObject({ email: CUSTOMER, name: "Ada Lovelace" });
    const added = envelopes.find((e) => e.event === "message.created");
    expect(added?.data.message).toMatchObject({ type: "customer", from: CUSTOMER, status: "received" });
  });
});

describe("mail refused or set aside", () => {
  it("refuses an unknown recipient permanently and stores nothing", async () => {
    const { ws } = await inboundWorkspace();
    const to = `nobody-${crypto.randomUUID().slice(0, 8)}@acme.test`;
    const result = await deliver(fill(FIXTURES.plainText, { TO: to }), { to });
    expect(result).toEqual({
      outcome: "rejected",
      reason: `No mailbox ${to} here: it is not an address of this service.`,
    });
    expect(await ticketsOf(ws.token)).toEqual([]);
  });

  it("refuses a message over 25 MiB before reading it", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const line = `${"A".repeat(76)}\r\n`;
    const padding = line.repeat(Math.ceil((25 * 1024 * 1024) / line.length));
    const raw = fill(FIXTURES.overLimit, { TO: inbox.emailAddress, PADDING: padding.trimEnd() });
    expect(raw.length).toBeGreaterThan(25 * 1024 * 1024);
    const result = await deliver(raw, { to: inbox.emailAddress });
    expect(result).toEqual({
      outcome: "rejected",
      reason: "Message too large: this service accepts messages of up to 25 MiB.",
    });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect(await droppedOf(ws.accountId)).toEqual([]);
  });

  it("keeps a message it cannot parse, recorded for operators, and opens nothing", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.nested, { TO: inbox.emailAddress });
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect(await ticketsOf(ws.token)).toEqual([]);
    const [dropped] = await droppedOf(ws.accountId);
    expect(dropped).toMatchObject({ reason: "parse_failed", raw_size: raw.length });
    expect(dropped?.detail).toContain("nesting depth");
    expect(await (await env.FILES.get(dropped?.raw_key as string))?.text()).toBe(raw);
  });

  it("records and drops mail that names no sender at all", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress }).replace(/^From: .*\r\n/m, "");
    expect(await deliver(raw, { to: inbox.emailAddress, from: "" })).toEqual({ outcome: "accepted" });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual(["no_sender"]);
  });

  it("records and drops a blocked customer's mail, new or a reply", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress }), { to: inbox.emailAddress });
    const [ticket] = await ticketsOf(ws.token);
    await callJson("PATCH", `/v1/customers/${ticket?.customer.id}`, {
      token: ws.token,
      body: { blocked: true },
    });

    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress }), { to: inbox.emailAddress });
    const reply = fill(FIXTURES.forged, { TO: inbox.emailAddress, FROM: CUSTOMER }).replace(
      "Subject: Re: Printer on fire",
      `Subject: Re: Printer on fire [${ticket?.client_id}]`,
    );
    expect(await deliver(reply, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });

    expect((await ticketsOf(ws.token)).map((t) => t.message_count)).toEqual([1]);
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual([
      "customer_blocked",
      "customer_blocked",
    ]);
  });
});
