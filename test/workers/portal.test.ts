import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { htmlToText } from "../../src/features/portal/html-to-text";
import { publicTicketQueries } from "../../src/features/portal/portal.repo";
import { newId } from "../../src/lib/ids";
import { call, db, seedWorkspace } from "./helpers";
import { expectPageHeaders } from "./portal-helpers";
import { expectIndexed, planOf } from "./query-plan";

type Row = Record<string, string | number | null>;

async function insert(table: string, row: Row) {
  const columns = Object.keys(row);
  await env.DB_2.prepare(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
  )
    .bind(...Object.values(row))
    .run();
}

const T0 = Date.UTC(2025, 0, 15, 9, 30);
let ticketNumber = 0;

/** A workspace with an inbox, a customer and one ticket; returns what messages need. */
async function seedTicket(options: { subject?: string; status?: string; inboxName?: string } = {}) {
  const { accountId } = await seedWorkspace();
  const inboxId = newId("inb");
  const customerId = newId("cus");
  const ticketId = newId("tkv");
  const sharedUuid = newId("shr");
  const number = ++ticketNumber;
  await insert("inboxes", {
    id: inboxId,
    account_id: accountId,
    name: options.inboxName ?? "Acme Support",
    email_address: `${inboxId.toLowerCase()}@acme.test`,
    created_at: T0,
    updated_at: T0,
  });
  await insert("customers", {
    id: customerId,
    account_id: accountId,
    email: "ada@example.com",
    created_at: T0,
    updated_at: T0,
  });
  await insert("tickets", {
    id: ticketId,
    account_id: accountId,
    inbox_id: inboxId,
    customer_id: customerId,
    number,
    client_id: `ACME-${number}`,
    subject: options.subject ?? "Printer on fire",
    status: options.status ?? "open",
    shared_uuid: sharedUuid,
    created_at: T0,
    updated_at: T0,
  });
  return { accountId, ticketId, sharedUuid, clientId: `ACME-${number}` };
}

const MESSAGE_SHAPES = {
  customer: { direction: "inbound", author_type: "customer", status: "received" },
  reply: { direction: "outbound", author_type: "user", status: "sent" },
  note: { direction: "internal", author_type: "user", status: "sent" },
} as const;

async function addMessage(
  ticket: { accountId: string; ticketId: string },
  type: keyof typeof MESSAGE_SHAPES,
  minutes: number,
  body: { body_text?: string; body_html?: string },
  extra: Row = {},
) {
  const at = T0 + minutes * 60_000;
  await insert("messages", {
    id: newId("msg"),
    account_id: ticket.accountId,
    ticket_id: ticket.ticketId,
    type,
    ...MESSAGE_SHAPES[type],
    is_draft: 0,
    ...body,
    created_at: at,
    updated_at: at,
    ...extra,
  });
}

const page = (sharedUuid: string) => call("GET", `/portal/tickets/${sharedUuid}`);

describe("GET /portal/tickets/{shared_uuid}", () => {
  it("shows the ticket and its public thread, oldest first, without notes or drafts", async () => {
    const ticket = await seedTicket({ status: "pending" });
    // Inserted out of order: the page orders by time, not by insertion.
    await addMessage(ticket, "reply", 10, { body_text: "Have you tried water?" });
    await addMessage(ticket, "customer", 0, { body_text: "It is on fire.\nSend help." });
    await addMessage(ticket, "note", 5, { body_text: "INTERNAL: customer seems calm" });
    await addMessage(
      ticket,
      "reply",
      15,
      { body_text: "DRAFT: maybe a fire extinguisher" },
      { is_draft: 1, status: "draft" },
    );
    // Either mark alone hides a draft.
    await addMessage(ticket, "reply", 16, { body_text: "DRAFT: flagged only" }, { is_draft: 1 });
    await addMessage(ticket, "reply", 17, { body_text: "DRAFT: status only" }, { status: "draft" });
    await addMessage(ticket, "customer", 20, { body_text: "Water made it worse." });

    const res = await page(ticket.sharedUuid);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    const html = await res.text();
    expect(html).toContain("Printer on fire");
    expect(html).toContain(ticket.clientId);
    expect(html).toContain("Acme Support");
    expect(html).toContain("Waiting on you");
    expect(html).toContain("It is on fire.\nSend help.");
    // Line breaks show as written: the stylesheet sets `white-space: pre-wrap` on message bodies.
    expect(html).toContain('<p class="body">It is on fire.\nSend help.</p>');
    expect(html).toContain('href="/dashboard-assets/app.css"');
    expect(html).toContain("2025-01-15 09:30 UTC");

    const order = ["It is on fire.", "Have you tried water?", "Water made it worse."].map((text) =>
      html.indexOf(text),
    );
    expect(order.every((index) => index > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).not.toContain("INTERNAL");
    expect(html).not.toContain("DRAFT");
    // The reply is signed by the inbox, the customer's messages by "You".
    expect(html).toMatch(/<strong>Acme Support<\/strong>[\s\S]*Have you tried water\?/);
    expect(html).toMatch(/<strong>You<\/strong>[\s\S]*It is on fire\./);
  });

  it.each([
    ["open", "Open"],
    ["on_hold", "On hold"],
    ["resolved", "Resolved"],
    ["closed", "Closed"],
  ])("words status %s as %s", async (status, words) => {
    const ticket = await seedTicket({ status });
    const html = await (await page(ticket.sharedUuid)).text();
    expect(html).toContain(`<span class="portal-status">${words}</span>`);
  });

  it("escapes every stored value: no injected tag or attribute survives", async () => {
    const ticket = await seedTicket({
      subject: `<script>alert(1)</script>"><img src=x onerror=alert(2)>`,
      inboxName: `Evil" onmouseover="alert(3)`,
    });
    await addMessage(ticket, "customer", 0, { body_text: `<img src=x onerror="alert(4)">'"><b>bold</b>` });
    await addMessage(ticket, "reply", 1, { body_text: "</p></article><script>alert(5)</script>" });

    const html = await (await page(ticket.sharedUuid)).text();
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toContain("<b>");
    expect(html).not.toMatch(/onmouseover="/);
    expect(html).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;",
    );
    expect(html).toContain("Evil&quot; onmouseover=&quot;alert(3)");
    expect(html).toContain(
      "&lt;img src=x onerror=&quot;alert(4)&quot;&gt;&#39;&quot;&gt;&lt;b&gt;bold&lt;/b&gt;",
    );
    expect(html).toContain("&lt;/p&gt;&lt;/article&gt;&lt;script&gt;alert(5)&lt;/script&gt;");
  });

  it("shows an HTML-only message as text, never as markup", async () => {
    const ticket = await seedTicket();
    await addMessage(ticket, "reply", 0, {
      body_html:
        '<p>Hello <b>there</b>,</p>\n<p>Step&nbsp;one &amp; &lt;script&gt;x&lt;/script&gt;<br>Step two</p><script>stolen()</script><img src=x onerror="alert(1)"><style>p{}</style>',
    });
    const html = await (await page(ticket.sharedUuid)).text();
    expect(html).toContain("Hello there,\n\nStep one &amp; &lt;script&gt;x&lt;/script&gt;\nStep two</p>");
    expect(html).not.toContain("<b>");
    expect(html).not.toMatch(/<script|<img|stolen|p\{\}/);
  });

  it("answers an HTML 404 for an unknown, malformed or non-shared id", async () => {
    const ticket = await seedTicket({ subject: "Secret subject" });
    for (const id of [newId("shr"), "shr_nope", "nope", ticket.ticketId, `${ticket.sharedUuid}x`]) {
      const res = await page(encodeURIComponent(id));
      expect(res.status, id).toBe(404);
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).toContain("Ticket not found");
      expect(html).not.toContain("Secret subject");
    }
  });

  it("hides a spam ticket behind a 404", async () => {
    const ticket = await seedTicket({ status: "spam", subject: "Cheap watches" });
    await addMessage(ticket, "customer", 0, { body_text: "Buy now" });
    const res = await page(ticket.sharedUuid);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).not.toContain("Cheap watches");
    expect(html).not.toContain("Buy now");
  });

  it("needs no API key and says so in the pages' OpenAPI document", async () => {
    const doc = await (await call("GET", "/_ops/openapi.json")).json<{
      paths: Record<string, { get?: { "x-permission": string; responses: Record<string, unknown> } }>;
    }>();
    const operation = doc.paths["/portal/tickets/{shared_uuid}"]?.get;
    expect(operation?.["x-permission"]).toBe("public");
    expect(operation?.responses["404"]).toMatchObject({ content: { "text/html": {} } });
  });

  it("reads the ticket and its thread through indexes", async () => {
    const { ticket, thread } = publicTicketQueries(db(), "acc_X", "shr_X");
    expectIndexed(await planOf(ticket), "tickets");
    expectIndexed(await planOf(thread), "messages");
  });
});

describe("htmlToText", () => {
  it("decodes numeric entities and refuses impossible ones", () => {
    expect(htmlToText("caf&#233; &#x1F600; &#0; &#xD800; &#x110000; &bogus;")).toBe(
      "café 😀 \uFFFD \uFFFD \uFFFD &bogus;",
    );
  });

  it("turns list items and blocks into lines", () => {
    expect(htmlToText("<div>Steps:</div><ul>\n  <li>one</li>\n  <li>two</li></ul>")).toBe(
      "Steps:\n\n• one\n• two",
    );
  });
});
