import { describe, expect, it } from "vitest";
import { previewSavedReply } from "../../src/features/saved-replies/use";
import { call, callJson, db, eventsOf, seedInbox, seedUser, shardEnv, ticketWorkspace } from "./helpers";

type Preview = { body_text: string; body_html: string; actions: Record<string, unknown> };
type ErrorBody = { error: string; code: string; message?: string };
type Ticket = {
  id: string;
  client_id: string;
  status: string;
  tags: string[];
  assignee_id: string | null;
  message_count: number;
};
type Message = {
  id: string;
  type: string;
  body_text: string | null;
  body_html: string | null;
  status: string;
};

/** A sending workspace with a ticket from a customer of this name (null: none). */
async function desk(customerName: string | null, subject = "Refund for order 7") {
  const { ws, inbox, domain } = await ticketWorkspace("srp-use");
  const customer = {
    email: `c-${crypto.randomUUID().slice(0, 6)}@example.com`,
    ...(customerName ? { name: customerName } : {}),
  };
  const ticket = (
    await callJson<Ticket>("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer, subject },
    })
  ).body;
  const save = async (fields: Record<string, unknown>) =>
    (
      await callJson<{ id: string }>("POST", "/v1/saved-replies", {
        token: ws.token,
        body: { name: "R", ...fields },
      })
    ).body.id;
  const preview = (id: string, ticketId = ticket.id) =>
    callJson<Preview & ErrorBody>("POST", `/v1/saved-replies/${id}/preview`, {
      token: ws.token,
      body: { ticket_id: ticketId },
    });
  const post = (body: Record<string, unknown>, ticketId = ticket.id) =>
    callJson<Message & ErrorBody>("POST", `/v1/tickets/${ticketId}/messages`, { token: ws.token, body });
  const ticketNow = async () =>
    (await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token })).body;
  return { ws, inbox, domain, customer, ticket, save, preview, post, ticketNow };
}

describe("saved replies: variables", () => {
  it("fills in every variable from the ticket, its customer and inbox", async () => {
    const d = await desk("Ada Lovelace");
    const id = await d.save({
      body: [
        "{{ customer.first_name }}|{{ customer.name }}|{{ customer.email }}",
        "{{ ticket.client_id }}|{{ ticket.subject }}|{{ inbox.name }}",
        '{{ user.name | default: "The team" }}|{{ customer.first_name | upcase }}|{{ customer.name | downcase }}',
      ].join("\n\n"),
    });
    const { status, body } = await d.preview(id);
    expect(status).toBe(200);
    expect(body.body_text).toBe(
      [
        `Ada|Ada Lovelace|${d.customer.email}`,
        `${d.ticket.client_id}|Refund for order 7|Support`,
        "The team|ADA|ada lovelace",
      ].join("\n\n"),
    );
    expect(body.body_html).toContain(`<p>${d.ticket.client_id}|Refund for order 7|Support</p>`);
    expect(body.body_html).toContain("<p>The team|ADA|ada lovelace</p>");
    expect(body.actions).toEqual({});
  });

  it("uses the default for a missing value and refuses a missing value without one (422 naming it)", async () => {
    const d = await desk(null);
    const withDefault = await d.save({ body: 'Hi {{ customer.first_name | default: "there" }},' });
    expect((await d.preview(withDefault)).body.body_text).toBe("Hi there,");
    const without = await d.save({ body: "Hi {{ customer.first_name }}," });
    const refused = await d.preview(without);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("missing_variable");
    expect(refused.body.message).toContain("customer.first_name");
    // A filter does not stand for a default.
    const upcased = await d.save({ body: "Hi {{ customer.name | upcase }}," });
    expect((await d.preview(upcased)).body.message).toContain("customer.name");
    // Sending it is refused the same way, and nothing is stored or sent.
    const sent = await d.post({ saved_reply_id: without });
    expect(sent.status).toBe(422);
    expect(sent.body.code).toBe("missing_variable");
    expect((await d.ticketNow()).message_count).toBe(0);
  });

  it("has no user through an API key; the dashboard's signed-in user is `user`", async () => {
    const d = await desk("Ada");
    const id = await d.save({ body: "Regards, {{ user.name }}" });
    const api = await d.preview(id);
    expect(api.status).toBe(422);
    expect(api.body.message).toContain("user.name");
    const person = await seedUser(d.ws.accountId);
    const ctx = { db: db(), env: shardEnv(), accountId: d.ws.accountId, now: Date.now() };
    expect((await previewSavedReply(ctx, id, d.ticket.id, person.id)).body_text).toBe("Regards, Test Person");
  });

  it("escapes values: a customer's name cannot inject Markdown, HTML or a link", async () => {
    const name =
      "<script>alert(1)</script> **bold** [x](javascript:alert(1)) <b>b</b> www.evil.test http://evil.test _u_ # h";
    const d = await desk(name);
    const id = await d.save({ body: "**Hello** {{ customer.name }}\n\n{{ customer.first_name }}" });
    const { status, body } = await d.preview(id);
    expect(status).toBe(200);
    expect(body.body_text).toBe(`**Hello** ${name}\n\n<script>alert(1)</script>`);
    const html = body.body_html;
    expect(html).toContain("<strong>Hello</strong>");
    expect(html.match(/<strong>/g)).toHaveLength(1);
    for (const bad of ["<script", "<b>", "<em>", "<h1", 'href="javascript']) expect(html).not.toContain(bad);
    expect(html).toContain(
      "&#x3C;script>alert(1)&#x3C;/script> **bold** [x](javascript:alert(1)) &#x3C;b>b&#x3C;/b>",
    );
    // A value that is itself a web address is linked as any address in text is (GitHub's
    // autolinks): the link shows its own address, never other text.
    expect(html.match(/<a [^>]*>[^<]*<\/a>/g)).toEqual([
      '<a href="http://www.evil.test">www.evil.test</a>',
      '<a href="http://evil.test">http://evil.test</a>',
    ]);
    expect(html).toContain(" _u_ # h</p>");
  });

  it("renders the body's own Markdown, sanitized", async () => {
    const d = await desk("Ada");
    const id = await d.save({
      body: "See [the guide](https://example.com/guide) and [this](javascript:alert(1)).\n\n<img src=x onerror=alert(1)>",
    });
    const html = (await d.preview(id)).body.body_html;
    expect(html).toContain('<a href="https://example.com/guide">the guide</a>');
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("onerror");
  });
});

describe("saved replies: sending one", () => {
  it("stores the rendered text and applies its actions with the reply", async () => {
    const d = await desk("Ada Lovelace");
    const agent = await seedUser(d.ws.accountId);
    const id = await d.save({
      body: "Hi **{{ customer.first_name }}**, your refund is on its way.",
      inbox_id: d.inbox.id,
      actions: { status: "resolved", add_tags: ["refund", "billing"], assignee_id: agent.id },
    });
    const { status, body } = await d.post({ saved_reply_id: id });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      type: "reply",
      body_text: "Hi **Ada**, your refund is on its way.",
      body_html: "<p>Hi <strong>Ada</strong>, your refund is on its way.</p>",
      status: "queued",
    });
    const stored = await callJson<Message>("GET", `/v1/messages/${body.id}`, { token: d.ws.token });
    expect(stored.body.body_html).toBe("<p>Hi <strong>Ada</strong>, your refund is on its way.</p>");
    const ticket = await d.ticketNow();
    expect(ticket).toMatchObject({ status: "resolved", assignee_id: agent.id, message_count: 1 });
    expect([...ticket.tags].sort()).toEqual(["billing", "refund"]);
    const events = (await eventsOf(d.ws.accountId)).map((e) => e.event);
    expect(events).toContain("message.created");
    expect(events).toContain("ticket.updated");
  });

  it("applies a status to a note through the ticket update (ticket.updated fires)", async () => {
    const d = await desk("Ada");
    const id = await d.save({ body: "Escalated to billing.", actions: { status: "on_hold" } });
    const before = (await eventsOf(d.ws.accountId)).length;
    const { status, body } = await d.post({ type: "note", saved_reply_id: id });
    expect(status).toBe(201);
    expect(body.body_text).toBe("Escalated to billing.");
    expect((await d.ticketNow()).status).toBe("on_hold");
    const events = (await eventsOf(d.ws.accountId)).slice(before);
    const updated = events.find((e) => e.event === "ticket.updated");
    expect(updated?.data.ticket?.status).toBe("on_hold");
  });

  it("sends a body given with it as written, and still applies its actions", async () => {
    const d = await desk(null);
    const id = await d.save({ body: "Hi {{ customer.first_name }}", actions: { add_tags: ["macro"] } });
    const { status, body } = await d.post({ saved_reply_id: id, body_text: "Hi Ada, edited." });
    expect(status).toBe(201);
    expect(body.body_text).toBe("Hi Ada, edited.");
    expect((await d.ticketNow()).tags).toEqual(["macro"]);
  });

  it("refuses a reply scoped to another inbox (422), on preview and on send", async () => {
    const d = await desk("Ada");
    const elsewhere = await seedInbox(d.ws.accountId);
    const id = await d.save({ body: "Hi", inbox_id: elsewhere.id });
    const preview = await d.preview(id);
    expect(preview.status).toBe(422);
    expect(preview.body.code).toBe("saved_reply_other_inbox");
    const sent = await d.post({ saved_reply_id: id });
    expect(sent.status).toBe(422);
    expect(sent.body.code).toBe("saved_reply_other_inbox");
    expect((await d.ticketNow()).message_count).toBe(0);
  });

  it("refuses saved_reply_id with a draft or a customer message, and a message with no text at all (400)", async () => {
    const d = await desk("Ada");
    const id = await d.save({ body: "Hi" });
    for (const body of [
      { saved_reply_id: id, draft: true },
      { saved_reply_id: id, type: "customer" },
      { type: "reply" },
    ]) {
      expect(
        (await call("POST", `/v1/tickets/${d.ticket.id}/messages`, { token: d.ws.token, body })).status,
      ).toBe(400);
    }
    expect((await d.post({ saved_reply_id: "srp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" })).status).toBe(404);
  });

  it("previews without sending or changing anything, and shows the actions", async () => {
    const d = await desk("Ada");
    const id = await d.save({ body: "Done.", actions: { status: "closed", add_tags: ["x"] } });
    const { body } = await d.preview(id);
    expect(body).toEqual({
      body_text: "Done.",
      body_html: "<p>Done.</p>",
      actions: { status: "closed", add_tags: ["x"] },
    });
    const ticket = await d.ticketNow();
    expect(ticket).toMatchObject({ status: d.ticket.status, message_count: 0, tags: [] });
    expect((await d.preview(id, "tkv_01JD3Z6X8Y9ABCDEFGHJKMNPQR")).status).toBe(404);
  });
});
