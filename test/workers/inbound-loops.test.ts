import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { callJson, eventsOf, seedInbox, seedUser } from "./helpers";
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
import { postForm, sentSystemEmail } from "./people-helpers";

/** The plain fixture with extra header lines on top, as a client or list server adds them. */
const withHeaders = (to: string, lines: string[], values: Record<string, string> = {}) =>
  `${lines.map((l) => `${l}\r\n`).join("")}${fill(FIXTURES.plainText, { TO: to, ...values })}`;

const customersOf = async (token: string) =>
  (await callJson<{ data: unknown[] }>("GET", "/v1/customers", { token })).body.data;

describe("automatic mail", () => {
  it("an out-of-office answer to a ticket is kept, flagged, and reopens nothing", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress, ID: "ask" }), {
      to: inbox.emailAddress,
    });
    const [ticket] = await ticketsOf(ws.token);
    await callJson("POST", `/v1/tickets/${ticket?.id}/manage`, {
      token: ws.token,
      body: { action: "resolve" },
    });

    const parent = "<ask@mail.example.com>";
    const raw = fill(FIXTURES.autoReply, { TO: inbox.emailAddress, IN_REPLY_TO: parent, REFERENCES: parent });
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });

    const after = (await ticketsOf(ws.token))[0];
    expect(after).toMatchObject({ id: ticket?.id, status: "resolved", message_count: 2 });
    const message = (await messagesOf(ws.token, ticket?.id as string)).at(-1);
    expect(message).toMatchObject({
      type: "customer",
      auto_submitted: true,
      subject: "Automatic reply: Printer on fire",
    });
    // Still a message added by an inbound email: receivers hear of it, and see it is automatic.
    const events = await eventsOf(ws.accountId);
    expect(events.map((e) => e.event)).toEqual(["ticket.created", "message.created", "message.created"]);
    expect(events.at(-1)?.data.message?.auto_submitted).toBe(true);
  });

  it("an automatic answer that threads into no ticket opens none, is recorded, and creates no customer", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const stray = "<campaign-1@news.acme.test>";
    const raw = fill(FIXTURES.autoReply, { TO: inbox.emailAddress, IN_REPLY_TO: stray, REFERENCES: stray });
    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect(await customersOf(ws.token)).toEqual([]);
    expect(await eventsOf(ws.accountId)).toEqual([]);
    expect(await droppedOf(ws.accountId)).toMatchObject([{ reason: "auto_submitted", raw_size: raw.length }]);
  });

  it.each([
    ["Auto-Submitted: auto-generated"],
    ["Precedence: bulk"],
    ["Precedence: list"],
    ["Precedence: junk"],
    ["X-Autoreply: yes"],
  ])("%s opens no ticket", async (header) => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(withHeaders(inbox.emailAddress, [header]), { to: inbox.emailAddress });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual(["auto_submitted"]);
  });

  it("a bounce's null sender opens no ticket; Auto-Submitted: no and Precedence: normal do", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress }), { to: inbox.emailAddress, from: "" });
    expect(await ticketsOf(ws.token)).toEqual([]);
    await deliver(withHeaders(inbox.emailAddress, ["Auto-Submitted: no", "Precedence: normal"]), {
      to: inbox.emailAddress,
    });
    expect((await ticketsOf(ws.token)).length).toBe(1);
  });
});

describe("the service's own mail", () => {
  it("coming back from the workspace's own inbox address or SYSTEM_FROM is dropped", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const sibling = await seedInbox(ws.accountId);
    const system = "no-reply@localhost.test";
    expect(env.SYSTEM_FROM).toContain(system);
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress, FROM: sibling.emailAddress }), {
      to: inbox.emailAddress,
      from: sibling.emailAddress,
    });
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress, FROM: system }), {
      to: inbox.emailAddress,
      from: system,
    });
    // A forwarder may keep the customer's From, but the envelope still names us.
    await deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress }), {
      to: inbox.emailAddress,
      from: inbox.emailAddress,
    });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual([
      "own_address",
      "own_address",
      "own_address",
    ]);
  });

  it("from another workspace's inbox address is a customer's mail like any other", async () => {
    // Workspace A writes to workspace B's support address: B's customer, whatever A's inbox is.
    const a = await inboundWorkspace();
    const b = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: b.inbox.emailAddress, FROM: a.inbox.emailAddress });
    expect(await deliver(raw, { to: b.inbox.emailAddress, from: a.inbox.emailAddress })).toEqual({
      outcome: "accepted",
    });
    expect((await ticketsOf(b.ws.token)).map((t) => t.customer.email)).toEqual([a.inbox.emailAddress]);
    expect(await droppedOf(b.ws.accountId)).toEqual([]);
    // A's own mail to A is still its own, and dropped.
    await deliver(fill(FIXTURES.plainText, { TO: a.inbox.emailAddress, FROM: a.inbox.emailAddress }), {
      to: a.inbox.emailAddress,
      from: a.inbox.emailAddress,
    });
    expect((await droppedOf(a.ws.accountId)).map((d) => d.reason)).toEqual(["own_address"]);
  });

  it("with an X-Loop naming us is dropped; an X-Loop naming someone else is not", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await deliver(withHeaders(inbox.emailAddress, [`X-Loop: ${inbox.emailAddress}`]), {
      to: inbox.emailAddress,
    });
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual(["loop"]);
    await deliver(withHeaders(inbox.emailAddress, ["X-Loop: helpdesk@customer.example"]), {
      to: inbox.emailAddress,
    });
    expect((await ticketsOf(ws.token)).map((t) => t.customer.email)).toEqual([CUSTOMER]);
  });

  it("invitations and sign-in links carry Auto-Submitted: auto-generated and an X-Loop naming SYSTEM_FROM", async () => {
    const { ws, inbox } = await inboundWorkspace();
    await callJson("POST", "/v1/invitations", {
      token: ws.token,
      body: { email: "new@example.com", role: "agent" },
    });
    const user = await seedUser(ws.accountId);
    expect((await postForm("/login", { email: user.email })).status).toBeLessThan(400);
    const invitation = (await sentSystemEmail(ws, "new@example.com")).raw;
    const signIn = (await sentSystemEmail(ws, user.email)).raw;
    for (const raw of [invitation, signIn]) {
      expect(raw).toContain("\r\nAuto-Submitted: auto-generated\r\n");
      expect(raw).toContain("\r\nX-Loop: no-reply@localhost.test\r\n");
    }

    // Such a mail delivered back into an inbox (an auto-forward, a misdirected copy) opens nothing.
    await deliver(invitation, { to: inbox.emailAddress, from: "forwarder@example.com" });
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual(["own_address"]);
  });
});
