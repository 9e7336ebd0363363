import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { verifyReplyToken } from "../../src/mail/reply-token";
import { call, callJson, eventsOf, eventually, seedInbox, sendingWorkspace } from "./helpers";

type Message = Record<string, unknown> & {
  id: string;
  status: string;
  email_id: string | null;
  email_message_id: string | null;
};
type Ticket = Record<string, unknown> & { id: string; status: string };

async function setup() {
  // Inbox addresses are unique across the service: each test gets its own domain.
  const domain = `help-${crypto.randomUUID().slice(0, 8)}.test`;
  const ws = await sendingWorkspace(domain);
  const inbox = await seedInbox(ws.accountId, `support@${domain}`);
  const ticket = (
    await callJson<Ticket>("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: "ada@example.com", name: "Ada" },
        subject: "Printer on fire",
      },
    })
  ).body;
  const post = (body: Record<string, unknown>) =>
    callJson<Message>("POST", `/v1/tickets/${ticket.id}/messages`, { token: ws.token, body });
  const status = async () =>
    (await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token })).body.status;
  return { ws, inbox, ticket, post, status, domain };
}

const sentMime = async (token: string, emailId: string) => {
  await eventually(
    async () =>
      (await callJson<{ status: string }>("GET", `/v1/emails/${emailId}`, { token })).body.status === "sent",
  );
  return (await call("GET", `/v1/emails/${emailId}/content`, { token })).text();
};

describe("messages", () => {
  it("emails a reply with threading headers and a Reply-To back to the ticket", async () => {
    const { ws, ticket, post, status, domain } = await setup();
    const first = await post({ type: "reply", body_text: "We are on it." });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      type: "reply",
      direction: "outbound",
      status: "queued",
      is_draft: false,
    });
    expect(await status()).toBe("pending");
    const firstMime = await PostalMime.parse(await sentMime(ws.token, first.body.email_id as string));
    expect(firstMime.subject).toBe("Re: Printer on fire");
    expect(firstMime.to?.[0]?.address).toBe("ada@example.com");
    expect(firstMime.from?.address).toBe(`support@${domain}`);
    const replyTo = firstMime.replyTo?.[0]?.address ?? "";
    const token = /^support\+([0-9a-z]+)@(.+)$/.exec(replyTo);
    expect(token?.[2]).toBe(domain);
    expect(await verifyReplyToken(env.ENCRYPTION_KEY, token?.[1] ?? "")).toBe(ticket.id);
    expect(replyTo).not.toContain(ticket.id);
    expect(firstMime.inReplyTo).toBe(`<${ticket.id}@${domain}>`);

    const second = await post({ type: "reply", body_html: "<p>Fixed</p>", status_after_send: "resolved" });
    const secondMime = await PostalMime.parse(await sentMime(ws.token, second.body.email_id as string));
    expect(secondMime.inReplyTo).toBe(first.body.email_message_id);
    expect(secondMime.references).toBe(`<${ticket.id}@${domain}> ${first.body.email_message_id}`);
    expect(await status()).toBe("resolved");
    expect(
      (await callJson<Message>("GET", `/v1/messages/${first.body.id}`, { token: ws.token })).body.status,
    ).toBe("sent");
  });

  it("replies with the inbox's own address as Reply-To when a token would not fit its local part", async () => {
    const domain = `long-${crypto.randomUUID().slice(0, 8)}.test`;
    const ws = await sendingWorkspace(domain);
    // 40 characters: with `+` and a token the local part would pass the 64 octets of RFC 5321.
    const address = `${"customer-support-and-billing-team".padEnd(40, "x")}@${domain}`;
    const inbox = await seedInbox(ws.accountId, address);
    const ticket = (
      await callJson<Ticket>("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Hello" },
      })
    ).body;
    const reply = await callJson<Message>("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "reply", body_text: "Hi" },
    });
    expect(reply.status).toBe(201);
    const mime = await PostalMime.parse(await sentMime(ws.token, reply.body.email_id as string));
    expect(mime.replyTo?.[0]?.address).toBe(address);
    expect(mime.inReplyTo).toBe(`<${ticket.id}@${domain}>`);
  });

  it("reopens on a customer message, changes nothing on a note, and fires message.created but never ticket.updated", async () => {
    const { ws, ticket, post, status } = await setup();
    await call("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action: "close" } });
    await post({ type: "customer", body_text: "Still broken" });
    expect(await status()).toBe("open");
    await call("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action: "hold" } });
    await post({ type: "note", body_text: "Internal: call them" });
    expect(await status()).toBe("on_hold");
    await call("POST", `/v1/tickets/${ticket.id}/manage`, { token: ws.token, body: { action: "spam" } });
    await post({ type: "customer", body_text: "buy pills" });
    expect(await status()).toBe("spam");
    const names = (await eventsOf(ws.accountId)).map((e) => e.event);
    expect(names).toEqual(["ticket.created", "message.created", "message.created", "message.created"]);
    const created = (await eventsOf(ws.accountId))[1];
    expect(created?.data.message).toMatchObject({ type: "customer", body_text: "Still broken" });
    expect(created?.data.ticket).toMatchObject({ id: ticket.id });
  });

  it("keeps drafts silent until sent, and only drafts can change", async () => {
    const { ws, post, status } = await setup();
    const draft = await post({ type: "reply", body_text: "Draft", draft: true });
    expect(draft.body).toMatchObject({ is_draft: true, status: "draft", email_id: null });
    expect(await status()).toBe("open");
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["ticket.created"]);
    const edited = await callJson<Message>("PATCH", `/v1/messages/${draft.body.id}`, {
      token: ws.token,
      body: { body_text: "Final words" },
    });
    expect(edited.body.body_text).toBe("Final words");
    const sent = await callJson<Message>("POST", `/v1/messages/${draft.body.id}/send`, { token: ws.token });
    expect(sent.body).toMatchObject({
      is_draft: false,
      status: "queued",
      email_id: expect.stringMatching(/^eml_/),
    });
    expect(await status()).toBe("pending");
    expect((await eventsOf(ws.accountId)).map((e) => e.event)).toEqual(["ticket.created", "message.created"]);
    expect(
      (await call("PATCH", `/v1/messages/${draft.body.id}`, { token: ws.token, body: { body_text: "x" } }))
        .status,
    ).toBe(409);
    expect((await call("DELETE", `/v1/messages/${draft.body.id}`, { token: ws.token })).status).toBe(409);
    expect((await call("POST", `/v1/messages/${draft.body.id}/send`, { token: ws.token })).status).toBe(409);
    const other = await post({ type: "note", body_text: "scratch", draft: true });
    expect((await callJson("DELETE", `/v1/messages/${other.body.id}`, { token: ws.token })).body).toEqual({
      id: other.body.id,
      deleted: true,
    });
  });

  it("stores attachments in R2 and serves their bytes; deleting the ticket removes them", async () => {
    const { ws, ticket, post } = await setup();
    const bytes = crypto.getRandomValues(new Uint8Array(2048));
    const { body } = await post({
      type: "note",
      body_text: "log attached",
      attachments: [{ filename: "log.bin", content: btoa(String.fromCharCode(...bytes)) }],
    });
    const list = await callJson<{
      attachments: Array<{ id: string; filename: string; size: number }>;
      count: number;
    }>("GET", `/v1/messages/${body.id}/attachments`, { token: ws.token });
    expect(list.body).toMatchObject({
      count: 1,
      attachments: [{ filename: "log.bin", size: 2048, content_type: "application/octet-stream" }],
    });
    const attachment = list.body.attachments[0]?.id as string;
    const content = await call("GET", `/v1/messages/${body.id}/attachments/${attachment}/content`, {
      token: ws.token,
    });
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(bytes);
    const stranger = await sendingWorkspace(`other-${crypto.randomUUID().slice(0, 8)}.test`);
    expect(
      (
        await call("GET", `/v1/messages/${body.id}/attachments/${attachment}/content`, {
          token: stranger.token,
        })
      ).status,
    ).toBe(404);
    await call("DELETE", `/v1/tickets/${ticket.id}`, { token: ws.token });
    expect(await env.FILES.get(`messages/${body.id}/${attachment}`)).toBeNull();
  });

  it("deletes attachment bytes with the inbox too", async () => {
    const { ws, inbox, post } = await setup();
    const { body } = await post({
      type: "note",
      body_text: "file",
      attachments: [{ filename: "a.txt", content: btoa("hello") }],
    });
    const list = await callJson<{ attachments: Array<{ id: string }> }>(
      "GET",
      `/v1/messages/${body.id}/attachments`,
      { token: ws.token },
    );
    const key = `messages/${body.id}/${list.body.attachments[0]?.id}`;
    expect(await env.FILES.get(key)).not.toBeNull();
    expect((await call("DELETE", `/v1/inboxes/${inbox.id}`, { token: ws.token })).status).toBe(200);
    expect(await env.FILES.get(key)).toBeNull();
    expect((await call("GET", `/v1/messages/${body.id}`, { token: ws.token })).status).toBe(404);
  });

  it("lists oldest first with created_after, and hides other workspaces' messages", async () => {
    const { ws, ticket, post } = await setup();
    const a = (await post({ type: "note", body_text: "one" })).body;
    const b = (await post({ type: "note", body_text: "two" })).body;
    const list = await callJson<{ data: Message[]; pagination: Record<string, number> }>(
      "GET",
      `/v1/tickets/${ticket.id}/messages`,
      { token: ws.token },
    );
    expect(list.body.data.map((m) => m.id)).toEqual([a.id, b.id]);
    expect(list.body.pagination).toEqual({ limit: 50, offset: 0, total: 2 });
    const since = await callJson<{ data: Message[] }>(
      "GET",
      `/v1/tickets/${ticket.id}/messages?created_after=${encodeURIComponent(a.created_at as string)}`,
      { token: ws.token },
    );
    expect(since.body.data.map((m) => m.id)).toEqual([b.id]);
    const stranger = await sendingWorkspace("stranger.test");
    for (const path of [
      `/v1/messages/${a.id}`,
      `/v1/messages/${a.id}/attachments`,
      `/v1/tickets/${ticket.id}/messages`,
    ]) {
      expect((await call("GET", path, { token: stranger.token })).status, path).toBe(404);
    }
  });
});

describe("POST /v1/tickets/compose", () => {
  it("starts a ticket by email without ticket.created or message.created", async () => {
    const ws = await sendingWorkspace("compose.test");
    const inbox = await seedInbox(ws.accountId, "hello@compose.test");
    const { status, body } = await callJson<Ticket>("POST", "/v1/tickets/compose", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        to: "new@example.com",
        name: "New Person",
        subject: "Welcome",
        body_text: "Hi!",
      },
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      subject: "Welcome",
      status: "pending",
      customer: { email: "new@example.com", name: "New Person" },
      message_count: 1,
    });
    const messages = await callJson<{ data: Message[] }>("GET", `/v1/tickets/${body.id}/messages`, {
      token: ws.token,
    });
    expect(messages.body.data).toEqual([expect.objectContaining({ type: "reply", direction: "outbound" })]);
    await sentMime(ws.token, messages.body.data[0]?.email_id as string);
    expect(await eventsOf(ws.accountId)).toEqual([]);
  });

  it("answers 413 when the email would exceed 25 MB, and creates nothing", async () => {
    const ws = await sendingWorkspace("bigcompose.test");
    const inbox = await seedInbox(ws.accountId, "hello@bigcompose.test");
    const content = "A".repeat(Math.ceil((26 * 1024 * 1024) / 3) * 4);
    const { status } = await callJson("POST", "/v1/tickets/compose", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        to: "new@example.com",
        subject: "Big",
        body_text: "x",
        attachments: [{ filename: "big.bin", content }],
      },
    });
    expect(status).toBe(413);
    expect(
      (await callJson<{ pagination: { total: number } }>("GET", "/v1/tickets", { token: ws.token })).body
        .pagination.total,
    ).toBe(0);
  });
});
