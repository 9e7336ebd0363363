import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { publicInboxQuery, replyTargetQuery } from "../../src/features/portal/portal.repo";
import { MAX_MESSAGE_BODY_BYTES } from "../../src/features/tickets/tickets.schemas";
import { newId } from "../../src/lib/ids";
import { EVENT_NAMES } from "../../src/webhooks/outbox";
import { call, callJson, db, eventsOf, eventually, seedWorkspace } from "./helpers";
import { postForm, uniqueIp } from "./people-helpers";
import { expectPageHeaders } from "./portal-helpers";
import { expectIndexed, planOf } from "./query-plan";
import { awaitDeliveries, endpoint, envelopesAt, inboxWithWebhooks } from "./webhook-helpers";

const contactPath = (inboxId: string) => `/portal/inboxes/${inboxId}/new`;
const replyPath = (sharedUuid: string) => `/portal/tickets/${sharedUuid}/messages`;
const SHARED_LINK = /\/portal\/tickets\/(shr_[0-9A-HJKMNP-TV-Z]{26})/;

const uniqueEmail = () => `grace-${crypto.randomUUID().slice(0, 8)}@example.com`;

function contactFields(overrides: Record<string, string> = {}) {
  return {
    name: "Grace Hopper",
    email: uniqueEmail(),
    subject: "Printer on fire",
    message: "It is on fire.\r\nSend help.",
    website: "",
    ...overrides,
  };
}

/** A workspace whose inbox sends every event to its own path of the loopback receiver. */
async function portalInbox() {
  const hook = endpoint();
  const { ws, inbox } = await inboxWithWebhooks([{ url: hook.url, events: [...EVENT_NAMES] }]);
  return { ws, inbox, hook };
}

/** What the workspace holds, to show that a refused or ignored post stored nothing. */
async function holdings(accountId: string) {
  const count = async (table: string) =>
    (
      await env.DB_2.prepare(`SELECT count(*) AS n FROM ${table} WHERE account_id = ?`)
        .bind(accountId)
        .first<{ n: number }>()
    )?.n;
  return {
    tickets: await count("tickets"),
    customers: await count("customers"),
    messages: await count("messages"),
    events: await count("events"),
  };
}

/**
 * Posts the contact form and answers the new ticket's shared id, read from the acknowledgement
 * mailed to the address given (the thank-you page never shows it).
 */
async function openByForm(inboxId: string, fields: Record<string, string> = {}) {
  const posted = contactFields(fields);
  const res = await postForm(contactPath(inboxId), posted);
  expect(res.status).toBe(200);
  expect(await res.text()).not.toMatch(SHARED_LINK);
  const seen = await sharedLinksMailedTo(posted.email.toLowerCase());
  const known = new Set(mailedLinks.get(posted.email.toLowerCase()) ?? []);
  const sharedUuid = seen.find((link) => !known.has(link));
  expect(sharedUuid).toBeDefined();
  mailedLinks.set(posted.email.toLowerCase(), seen);
  return sharedUuid as string;
}

/** The ticket links already mailed to each address, so a second ticket's link can be told apart. */
const mailedLinks = new Map<string, string[]>();

/** Every ticket link in the acknowledgements sent to `email` (any workspace), waiting for a new one. */
async function sharedLinksMailedTo(email: string) {
  const known = mailedLinks.get(email)?.length ?? 0;
  return eventually(async () => {
    const rows = await env.DB_2.prepare(
      "SELECT e.id FROM emails e JOIN email_recipients r ON r.email_seq = e.seq WHERE r.address = ? AND e.status = 'sent'",
    )
      .bind(email)
      .all<{ id: string }>();
    const links: string[] = [];
    for (const { id } of rows.results) {
      const raw = (await (await env.FILES.get(`emails/${id}/message.eml`))?.text()) ?? "";
      const link = SHARED_LINK.exec(raw.replace(/=\r\n/g, ""))?.[1];
      if (link) links.push(link);
    }
    return links.length > known ? links : undefined;
  });
}

type Ticket = { id: string; client_id: string; status: string; message_count: number; customer_id: string };

async function ticketByShared(token: string, sharedUuid: string) {
  const { body } = await callJson<{ data: Array<Ticket & { shared_uuid: string }> }>("GET", "/v1/tickets", {
    token,
  });
  const ticket = body.data.find((t) => t.shared_uuid === sharedUuid);
  expect(ticket).toBeDefined();
  return ticket as Ticket;
}

/**
 * A ticket's messages, oldest first, each read with GET /v1/messages/{id}. (The list itself
 * answers `status: null` for messages without an email, a bug of its own reported apart.)
 */
async function messagesOf(token: string, ticketId: string) {
  const { body } = await callJson<{ data: Array<{ id: string }> }>(
    "GET",
    `/v1/tickets/${ticketId}/messages`,
    {
      token,
    },
  );
  const read = (id: string) => callJson<Record<string, unknown>>("GET", `/v1/messages/${id}`, { token });
  return Promise.all(body.data.map(async ({ id }) => (await read(id)).body));
}

describe("the contact form", { timeout: 30_000 }, () => {
  it("is a page naming the inbox, with a labelled honeypot and the portal's headers", async () => {
    const { inbox } = await portalInbox();
    const res = await call("GET", contactPath(inbox.id));
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain(`<form method="post" action="/portal/inboxes/${inbox.id}/new"`);
    for (const field of ["name", "email", "subject", "message"]) expect(html).toContain(`name="${field}"`);
    expect(html).toMatch(
      /<div class="portal-trap" aria-hidden="true"><label>Leave this field empty<input type="text" name="website" tabindex="-1"/,
    );
    expect(html).toContain("Support");
    expect(html).not.toContain("<script");
    const css = await (await env.ASSETS.fetch("http://localhost/dashboard-assets/app.css")).text();
    expect(css).toMatch(/\.portal-trap \{\s+position: absolute;\s+left: -10000px;/);
  });

  it("opens a ticket with the first customer message, firing ticket.created then message.created", async () => {
    const { ws, inbox, hook } = await portalInbox();
    const email = uniqueEmail();
    const res = await postForm(contactPath(inbox.id), contactFields({ email: email.toUpperCase() }));
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain("Thank you");
    const [sharedUuid] = await sharedLinksMailedTo(email);
    mailedLinks.set(email, [sharedUuid as string]);
    const ticket = await ticketByShared(ws.token, sharedUuid as string);

    const { body: full } = await callJson<Record<string, unknown>>("GET", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
    });
    expect(full).toMatchObject({
      subject: "Printer on fire",
      status: "open",
      inbox_id: inbox.id,
      message_count: 1,
      customer: { email, name: "Grace Hopper" },
    });
    const [message, ...others] = await messagesOf(ws.token, ticket.id);
    expect(others).toEqual([]);
    expect(message).toMatchObject({
      type: "customer",
      direction: "inbound",
      author: { type: "customer", id: ticket.customer_id },
      from: email,
      // The textarea's CRLF is stored as a line feed.
      body_text: "It is on fire.\nSend help.",
      body_html: null,
      status: "received",
    });

    const events = await eventsOf(ws.accountId);
    expect(events.map((e) => e.event)).toEqual(["ticket.created", "message.created"]);
    expect(events[1]?.data.message).toEqual(message);
    expect(events[1]?.data.ticket).toMatchObject({ id: ticket.id, status: "open" });
    await awaitDeliveries(hook.path, 2);
    const delivered = (await envelopesAt(hook.path)).sort((a, b) => a.id.localeCompare(b.id));
    expect(delivered.map((e) => e.event)).toEqual(["ticket.created", "message.created"]);
    expect(delivered[0]?.data.customer).toMatchObject({ email, name: "Grace Hopper" });
    expect(delivered[1]?.data.message).toEqual(message);

    // The same address again finds the customer: a second ticket, no second customer.
    const again = await openByForm(inbox.id, { email, name: "Someone Else" });
    const second = await ticketByShared(ws.token, again);
    expect(second.customer_id).toBe(ticket.customer_id);
    expect((await holdings(ws.accountId)).customers).toBe(1);
  });

  it("shows whoever posted no ticket link: the link goes by email, from the inbox, to the address given", async () => {
    const { ws, inbox } = await portalInbox();
    const email = uniqueEmail();
    const res = await postForm(contactPath(inbox.id), contactFields({ email }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toMatch(SHARED_LINK);
    expect(html).not.toContain("shr_");
    expect(html).toContain("Check your email");

    const [sharedUuid] = await sharedLinksMailedTo(email);
    mailedLinks.set(email, [sharedUuid as string]);
    const ticket = await ticketByShared(ws.token, sharedUuid as string);
    const { body: list } = await callJson<{
      data: Array<{ id: string; from: string; to: string[]; subject: string }>;
    }>("GET", "/v1/emails", { token: ws.token });
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({
      from: `Support <${(inbox as unknown as { email_address: string }).email_address}>`,
      to: [`Grace Hopper <${email}>`],
      subject: `[${ticket.client_id}] Re: Printer on fire`,
    });
    const raw = (await (await env.FILES.get(`emails/${list.data[0]?.id}/message.eml`))?.text()) ?? "";
    expect(raw).toContain("Auto-Submitted: auto-replied");
    // The link names the ticket's workspace, so the page finds its database at once.
    // Quoted-printable: soft line breaks joined, `=3D` back to `=`.
    expect(raw.replace(/=\r\n/g, "").replaceAll("=3D", "=")).toContain(
      `${env.PUBLIC_BASE_URL}/portal/tickets/${sharedUuid}?w=${ws.accountId}`,
    );
    // The acknowledgement is mail, not a message of the ticket.
    expect((await ticketByShared(ws.token, sharedUuid as string)).message_count).toBe(1);
  });

  it("puts the ticket in the inbox's own workspace, and its link opens the ticket page with the message", async () => {
    const { ws, inbox } = await portalInbox();
    const sharedUuid = await openByForm(inbox.id);
    const ticket = await ticketByShared(ws.token, sharedUuid);
    const other = await seedWorkspace();
    expect((await call("GET", `/v1/tickets/${ticket.id}`, { token: other.token })).status).toBe(404);

    const page = await call("GET", `/portal/tickets/${sharedUuid}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<p class="body">It is on fire.\nSend help.</p>');
    expect(html).toContain(
      `<form method="post" action="/portal/tickets/${sharedUuid}/messages?w=${ws.accountId}"`,
    );
  });

  it("answers a filled honeypot with the thank-you page and stores nothing", async () => {
    const { ws, inbox, hook } = await portalInbox();
    const res = await postForm(contactPath(inbox.id), contactFields({ website: "https://spam.example" }));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Thank you");
    expect(html).not.toMatch(SHARED_LINK);
    expect(await holdings(ws.accountId)).toEqual({ tickets: 0, customers: 0, messages: 0, events: 0 });
    expect(await awaitDeliveries(hook.path, 0)).toEqual([]);
  });

  it("opens nothing for a blocked address, with the very page a honeypot gets", async () => {
    const { ws, inbox, hook } = await portalInbox();
    const email = uniqueEmail();
    const blocked = await call("POST", "/v1/customers", { token: ws.token, body: { email, blocked: true } });
    expect(blocked.status).toBe(201);
    const before = await holdings(ws.accountId);

    const res = await postForm(contactPath(inbox.id), contactFields({ email }));
    expect(res.status).toBe(200);
    const trapped = await postForm(contactPath(inbox.id), contactFields({ website: "x" }));
    expect(await res.text()).toBe(await trapped.text());
    expect(await holdings(ws.accountId)).toEqual(before);
    expect(await awaitDeliveries(hook.path, 0)).toEqual([]);
  });

  it("limits posts to 10 per IP in 15 minutes; another IP is unaffected", async () => {
    const { ws, inbox } = await portalInbox();
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      const res = await postForm(contactPath(inbox.id), contactFields(), { "CF-Connecting-IP": ip });
      expect(res.status, `post ${i + 1}`).toBe(200);
    }
    const refused = await postForm(contactPath(inbox.id), contactFields(), { "CF-Connecting-IP": ip });
    expect(refused.status).toBe(429);
    expectPageHeaders(refused);
    expect(refused.headers.get("Retry-After")).toBe("900");
    expect(await refused.text()).toContain("Too many messages in a short time");
    expect((await holdings(ws.accountId)).tickets).toBe(10);
    expect((await postForm(contactPath(inbox.id), contactFields())).status).toBe(200);
  });

  it("limits posts to 5 per email address in 15 minutes, whatever its case; another address is unaffected", async () => {
    const { ws, inbox } = await portalInbox();
    const email = uniqueEmail();
    for (let i = 0; i < 5; i++) await openByForm(inbox.id, { email });
    const refused = await postForm(contactPath(inbox.id), contactFields({ email: email.toUpperCase() }));
    expect(refused.status).toBe(429);
    expect((await holdings(ws.accountId)).tickets).toBe(5);
    await openByForm(inbox.id);
  });

  it("refuses a post from another origin with a 403 page, and stores nothing", async () => {
    const { ws, inbox } = await portalInbox();
    const res = await postForm(contactPath(inbox.id), contactFields(), { Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expectPageHeaders(res);
    expect(await res.text()).toContain("Form not accepted");
    expect(await holdings(ws.accountId)).toEqual({ tickets: 0, customers: 0, messages: 0, events: 0 });
  });

  it("takes a message up to the API's body limit, and shows the form again, as typed, above it", async () => {
    const { ws, inbox } = await portalInbox();
    // As JSON the text takes two bytes more: its quotes.
    await openByForm(inbox.id, { message: "a".repeat(MAX_MESSAGE_BODY_BYTES - 2) });
    const over = await postForm(
      contactPath(inbox.id),
      contactFields({ message: "b".repeat(MAX_MESSAGE_BODY_BYTES - 1), subject: "Kept subject" }),
    );
    expect(over.status).toBe(400);
    expectPageHeaders(over);
    const html = await over.text();
    expect(html).toContain(`Write a message of at most ${MAX_MESSAGE_BODY_BYTES / 1000} KB.`);
    expect(html).toContain('value="Kept subject"');
    expect(html).toContain("b".repeat(MAX_MESSAGE_BODY_BYTES - 1));
    expect((await holdings(ws.accountId)).tickets).toBe(1);
  });

  it("names each refused field, and answers a body over 4 MB with a 413 page", async () => {
    const { ws, inbox } = await portalInbox();
    const res = await postForm(
      contactPath(inbox.id),
      contactFields({ name: "x".repeat(201), email: "not-an-address", subject: "", message: " " }),
    );
    expect(res.status).toBe(400);
    const html = await res.text();
    for (const help of [
      "Enter your name: one line, at most 200 characters.",
      "Enter an email address such as ada@example.com.",
      "Enter a subject: one line, at most 998 characters.",
      "Write a message of at most",
    ])
      expect(html).toContain(help);
    expect(html).toContain('value="not-an-address"');

    const huge = await postForm(contactPath(inbox.id), contactFields({ message: "c".repeat(4_300_000) }));
    expect(huge.status).toBe(413);
    expect(huge.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await huge.text()).toContain("The form is too large");
    expect((await holdings(ws.accountId)).tickets).toBe(0);
  });

  it("answers 404 for an unknown, malformed or deleted inbox, naming no workspace", async () => {
    const { ws, inbox } = await portalInbox();
    const { body: account } = await callJson<{ name: string }>("GET", `/v1/accounts/${ws.accountId}`, {
      token: ws.token,
    });
    expect((await call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token })).status).toBe(200);
    for (const id of [newId("inb"), "inb_nope", "nope", inbox.id]) {
      for (const res of [
        await call("GET", contactPath(id)),
        await postForm(contactPath(id), contactFields()),
      ]) {
        expect(res.status, id).toBe(404);
        expectPageHeaders(res);
        const html = await res.text();
        expect(html).toContain("Form not found");
        expect(html).not.toContain(account.name);
        expect(html).not.toContain(ws.accountId);
      }
    }
    expect((await holdings(ws.accountId)).tickets).toBe(0);
  });
});

describe("the reply form of the ticket page", { timeout: 30_000 }, () => {
  it.each(["pending", "on_hold", "resolved", "closed", "open"])(
    "adds the customer's message to a %s ticket, which is then open, firing message.created only",
    async (status) => {
      const { ws, inbox, hook } = await portalInbox();
      const sharedUuid = await openByForm(inbox.id);
      const ticket = await ticketByShared(ws.token, sharedUuid);
      await env.DB_2.prepare("UPDATE tickets SET status = ?, snoozed_until = ? WHERE id = ?")
        .bind(status, Date.now() + 86_400_000, ticket.id)
        .run();
      await awaitDeliveries(hook.path, 2, 0);

      const res = await postForm(replyPath(sharedUuid), {
        message: "Still broken.\r\nNow smoking.",
        website: "",
      });
      expect(res.status).toBe(303);
      const location = res.headers.get("Location") ?? "";
      expect(location).toMatch(
        new RegExp(`^/portal/tickets/${sharedUuid}\\?w=${ws.accountId}#msg_[0-9A-HJKMNP-TV-Z]{26}$`),
      );
      const messageId = location.slice(location.indexOf("#") + 1);

      const { body: after } = await callJson<Record<string, unknown>>("GET", `/v1/tickets/${ticket.id}`, {
        token: ws.token,
      });
      expect(after).toMatchObject({ status: "open", message_count: 2, snoozed_until: null, closed_at: null });
      const messages = await messagesOf(ws.token, ticket.id);
      const reply = messages.find((m) => m.id === messageId);
      expect(reply).toMatchObject({
        type: "customer",
        direction: "inbound",
        author: { type: "customer", id: ticket.customer_id },
        body_text: "Still broken.\nNow smoking.",
        status: "received",
      });

      const events = await eventsOf(ws.accountId);
      expect(events.map((e) => e.event)).toEqual(["ticket.created", "message.created", "message.created"]);
      expect(events[2]?.data.message).toEqual(reply);
      expect(events[2]?.data.ticket).toMatchObject({ id: ticket.id, status: "open" });
      const delivered = (await awaitDeliveries(hook.path, 3)).map((r) => JSON.parse(r.body));
      const last = delivered.sort((a, b) => a.id.localeCompare(b.id))[2];
      expect(last).toMatchObject({ event: "message.created", data: { message: { id: messageId } } });

      const page = await (await call("GET", location.slice(0, location.indexOf("#")))).text();
      expect(page).toContain(`<article class="portal-message" id="${messageId}">`);
      expect(page).toContain("Still broken.\nNow smoking.");
    },
  );

  it("writes the same message as POST /v1/tickets/{id}/messages with type customer", async () => {
    const { ws, inbox } = await portalInbox();
    const sharedUuid = await openByForm(inbox.id);
    const ticket = await ticketByShared(ws.token, sharedUuid);
    await postForm(replyPath(sharedUuid), { message: "Same words" });
    await call("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "Same words" },
    });
    const [, portal, api] = await messagesOf(ws.token, ticket.id);
    const shape = (m: Record<string, unknown> | undefined) => {
      const { id: _id, created_at: _c, updated_at: _u, sent_at: _s, ...rest } = m ?? {};
      return rest;
    };
    expect(portal?.body_text).toBe("Same words");
    expect(shape(portal)).toEqual(shape(api));
  });

  it("stores nothing for a filled honeypot or a blocked customer, and redirects all the same", async () => {
    const { ws, inbox } = await portalInbox();
    const sharedUuid = await openByForm(inbox.id);
    const ticket = await ticketByShared(ws.token, sharedUuid);
    const before = await holdings(ws.accountId);
    const trapped = await postForm(replyPath(sharedUuid), { message: "Buy now", website: "x" });
    expect(trapped.status).toBe(303);
    expect(trapped.headers.get("Location")).toBe(`/portal/tickets/${sharedUuid}?w=${ws.accountId}`);
    expect(await holdings(ws.accountId)).toEqual(before);

    const block = await call("PATCH", `/v1/customers/${ticket.customer_id}`, {
      token: ws.token,
      body: { blocked: true },
    });
    expect(block.status).toBe(200);
    const dropped = await postForm(replyPath(sharedUuid), { message: "Let me in" });
    expect(dropped.status).toBe(303);
    expect(dropped.headers.get("Location")).toBe(`/portal/tickets/${sharedUuid}?w=${ws.accountId}`);
    expect(await holdings(ws.accountId)).toEqual(before);
  });

  it("limits replies to 20 per IP and 20 per ticket customer in 15 minutes", async () => {
    const { inbox } = await portalInbox();
    const first = await openByForm(inbox.id);
    const second = await openByForm(inbox.id);
    const ip = uniqueIp();
    const reply = (sharedUuid: string, from: string) =>
      postForm(replyPath(sharedUuid), { message: "again" }, { "CF-Connecting-IP": from });
    for (let i = 0; i < 20; i++) expect((await reply(first, ip)).status, `reply ${i + 1}`).toBe(303);
    const refused = await reply(first, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBe("900");
    // The IP is spent, on any ticket; another IP may reply to another customer's ticket.
    expect((await reply(second, ip)).status).toBe(429);
    const other = uniqueIp();
    expect((await reply(second, other)).status).toBe(303);
    // The first ticket's customer is spent, from any IP.
    expect((await reply(first, other)).status).toBe(429);
  });

  it("refuses a post from another origin, an unknown or spam ticket, and a message over the limit", async () => {
    const { ws, inbox } = await portalInbox();
    const sharedUuid = await openByForm(inbox.id);
    const ticket = await ticketByShared(ws.token, sharedUuid);
    const before = await holdings(ws.accountId);

    const foreign = await postForm(
      replyPath(sharedUuid),
      { message: "hi" },
      { Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expectPageHeaders(foreign);

    const script = "<script>alert(1)</script>";
    const long = script.repeat(Math.ceil(MAX_MESSAGE_BODY_BYTES / script.length));
    const over = await postForm(replyPath(sharedUuid), { message: long });
    expect(over.status).toBe(400);
    expectPageHeaders(over);
    const page = await over.text();
    expect(page).toContain(`Write a message of at most ${MAX_MESSAGE_BODY_BYTES / 1000} KB.`);
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;".repeat(10));
    expect(page).not.toContain("<script");
    expect((await postForm(replyPath(sharedUuid), { message: "  \r\n " })).status).toBe(400);

    for (const id of [newId("shr"), "shr_nope", ticket.id]) {
      const res = await postForm(replyPath(id), { message: "hi" });
      expect(res.status, id).toBe(404);
      expect(await res.text()).toContain("Ticket not found");
    }
    await call("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action: "spam" } });
    expect((await postForm(replyPath(sharedUuid), { message: "hi" })).status).toBe(404);
    expect((await holdings(ws.accountId)).messages).toBe(before.messages);
  });
});

describe("escaping", { timeout: 30_000 }, () => {
  it("shows <script> typed in every field as text on every page it reaches", async () => {
    const { ws, inbox } = await portalInbox();
    const evil = (where: string) => `<script>alert("${where}")</script>`;
    await call("PATCH", `/v1/inboxes/${inbox.id}`, { token: ws.token, body: { name: evil("inbox") } });
    const escaped = (where: string) => `&lt;script&gt;alert(&quot;${where}&quot;)&lt;/script&gt;`;

    const form = await (await call("GET", contactPath(inbox.id))).text();
    expect(form).toContain(escaped("inbox"));

    const fields = { name: evil("name"), subject: evil("subject"), message: evil("message") };
    const refused = await postForm(contactPath(inbox.id), contactFields({ ...fields, email: evil("email") }));
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    for (const where of ["inbox", "name", "email", "subject", "message"])
      expect(refusedHtml).toContain(escaped(where));

    const posted = contactFields(fields);
    const thanks = await postForm(contactPath(inbox.id), posted);
    const thanksHtml = await thanks.text();
    const [sharedUuid = ""] = await sharedLinksMailedTo(posted.email);
    await postForm(replyPath(sharedUuid), { message: evil("reply") });
    const ticketHtml = await (await call("GET", `/portal/tickets/${sharedUuid}`)).text();
    for (const where of ["inbox", "subject", "message", "reply"])
      expect(ticketHtml).toContain(escaped(where));

    for (const html of [form, refusedHtml, thanksHtml, ticketHtml]) expect(html).not.toMatch(/<script/i);
  });
});

describe("the portal's routes", () => {
  it("are public operations in the pages' OpenAPI document, answering HTML", async () => {
    type Doc = {
      paths: Record<string, Record<string, { "x-permission": string; responses: Record<string, unknown> }>>;
    };
    const { body } = await callJson<Doc>("GET", "/_ops/openapi.json");
    const operations = [
      body.paths["/portal/tickets/{shared_uuid}"]?.get,
      body.paths["/portal/tickets/{shared_uuid}/messages"]?.post,
      body.paths["/portal/inboxes/{inbox_id}/new"]?.get,
      body.paths["/portal/inboxes/{inbox_id}/new"]?.post,
    ];
    for (const operation of operations) {
      expect(operation?.["x-permission"]).toBe("public");
      expect(operation?.responses["404"]).toMatchObject({ content: { "text/html": {} } });
    }
    for (const operation of operations.filter((_, i) => i % 2 === 1)) {
      for (const status of ["400", "403", "413", "429"])
        expect(operation?.responses[status], status).toMatchObject({ content: { "text/html": {} } });
    }
  });

  it("find the reply's ticket and the form's inbox through indexes", async () => {
    expectIndexed(await planOf(replyTargetQuery(db(), "acc_X", "shr_X")), "tickets");
    expectIndexed(await planOf(replyTargetQuery(db(), "acc_X", "shr_X")), "customers");
    expectIndexed(await planOf(publicInboxQuery(db(), "acc_X", "inb_X")), "inboxes");
  });
});
