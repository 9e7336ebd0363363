import { describe, expect, it } from "vitest";
import { callJson, eventsOf } from "./helpers";
import { CUSTOMER, deliver, FIXTURES, fill, messagesOf, ticketsOf } from "./inbound-helpers";
import { awaitDeliveries, endpoint, envelopesAt, inboxWithWebhooks } from "./webhook-helpers";

const AGENT_REPLY = "Hello Ada,\n\nPlease unplug the printer first.\n\nAcme Support";

/**
 * A ticket opened by Ada's mail and answered by an agent through the API, as every reply test
 * starts: its webhooks take every ticket and message event.
 */
async function conversation() {
  const hook = endpoint();
  const address = `support-${crypto.randomUUID().slice(0, 8)}@acme.test`;
  const { ws } = await inboxWithWebhooks(
    [{ url: hook.url, events: ["ticket.created", "ticket.updated", "message.created"] }],
    { emailAddress: address },
  );
  const firstId = `first-${crypto.randomUUID()}`;
  await deliver(fill(FIXTURES.plainText, { TO: address, ID: firstId }), { to: address });
  const [ticket] = await ticketsOf(ws.token);
  const reply = await callJson<{ email_id: string; email_message_id: string }>(
    "POST",
    `/v1/tickets/${ticket?.id}/messages`,
    { token: ws.token, body: { type: "reply", body_text: AGENT_REPLY } },
  );
  const email = await callJson<{ reply_to: string[] }>("GET", `/v1/emails/${reply.body.email_id}`, {
    token: ws.token,
  });
  return {
    ws,
    hook,
    address,
    ticket: ticket as NonNullable<typeof ticket>,
    firstId: `<${firstId}@mail.example.com>`,
    replyId: reply.body.email_message_id,
    replyAddress: email.body.reply_to[0] as string,
  };
}

const ticketOf = async (token: string, id: string) =>
  (
    await callJson<{ status: string; message_count: number; snoozed_until: string | null }>(
      "GET",
      `/v1/tickets/${id}`,
      { token },
    )
  ).body;

const manage = (token: string, id: string, body: Record<string, unknown>) =>
  callJson("POST", `/v1/tickets/${id}/manage`, { token, body });

describe("a customer's reply", () => {
  it("Gmail, to the inbox address: threads by In-Reply-To, reopens, folds the quote, fires only message.created", async () => {
    const c = await conversation();
    expect((await ticketOf(c.ws.token, c.ticket.id)).status).toBe("pending");
    const raw = fill(FIXTURES.gmail, {
      TO: c.address,
      INBOX: c.address,
      IN_REPLY_TO: c.replyId,
      REFERENCES: `${c.firstId} ${c.replyId}`,
    });
    expect(await deliver(raw, { to: c.address })).toEqual({ outcome: "accepted" });

    expect((await ticketsOf(c.ws.token)).length).toBe(1);
    expect(await ticketOf(c.ws.token, c.ticket.id)).toMatchObject({ status: "open", message_count: 3 });
    const message = (await messagesOf(c.ws.token, c.ticket.id)).at(-1);
    expect(message).toMatchObject({ type: "customer", from: CUSTOMER, subject: "Re: Printer on fire" });
    expect(message?.stripped_text).toBe("Unplugged it, the fire is out. Thank you!\n\nAda");
    expect(message?.body_text).toContain("> Please unplug the printer first.");
    expect(message?.body_html).toContain('class="gmail_quote"');

    const events = (await eventsOf(c.ws.accountId)).map((e) => e.event);
    expect(events).toEqual(["ticket.created", "message.created", "message.created", "message.created"]);
    await awaitDeliveries(c.hook.path, 4);
    const last = (await envelopesAt(c.hook.path)).filter((e) => e.data.message?.id === message?.id);
    expect(last.map((e) => e.event)).toEqual(["message.created"]);
    expect(last[0]?.data.ticket).toMatchObject({ id: c.ticket.id, status: "open" });
  });

  it("Outlook: threads by References when In-Reply-To names a mail the service never saw", async () => {
    const c = await conversation();
    await manage(c.ws.token, c.ticket.id, { action: "resolve" });
    const unknown = "<DB9PR04MB0000@DB9PR04MB8431.eurprd04.prod.outlook.com>";
    const raw = fill(FIXTURES.outlook, {
      TO: c.address,
      INBOX: c.address,
      IN_REPLY_TO: unknown,
      REFERENCES: `${c.replyId} ${unknown}`,
    });
    await deliver(raw, { to: c.address });
    expect(await ticketOf(c.ws.token, c.ticket.id)).toMatchObject({ status: "open", message_count: 3 });
    const message = (await messagesOf(c.ws.token, c.ticket.id)).at(-1);
    expect(message?.stripped_text).toBe("It is working again, thanks.\n\nKind regards,\nAda");
    expect(message?.body_text).toContain("Sent: Thursday, November 12, 2026 10:05 AM");
  });

  it("Apple Mail, to the signed reply address: threads by the address alone and ends a snooze", async () => {
    const c = await conversation();
    await manage(c.ws.token, c.ticket.id, {
      action: "snooze",
      until: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const nothing = "<never-stored@example.com>";
    const raw = fill(FIXTURES.apple, {
      TO: c.replyAddress,
      INBOX: c.address,
      IN_REPLY_TO: nothing,
      REFERENCES: nothing,
    });
    expect(await deliver(raw, { to: c.replyAddress })).toEqual({ outcome: "accepted" });
    expect(await ticketOf(c.ws.token, c.ticket.id)).toMatchObject({
      status: "open",
      message_count: 3,
      snoozed_until: null,
    });
    const message = (await messagesOf(c.ws.token, c.ticket.id)).at(-1);
    expect(message?.stripped_text).toBe("It started smoking again this morning.\n\nAda");
  });

  it("threads on the customer's own earlier mail, whose Message-ID was stored too", async () => {
    const c = await conversation();
    await deliver(
      fill(FIXTURES.gmail, {
        TO: c.address,
        INBOX: c.address,
        IN_REPLY_TO: c.firstId,
        REFERENCES: c.firstId,
      }),
      {
        to: c.address,
      },
    );
    expect((await ticketsOf(c.ws.token)).map((t) => t.id)).toEqual([c.ticket.id]);
  });

  it("leaves a spam ticket spam", async () => {
    const c = await conversation();
    await manage(c.ws.token, c.ticket.id, { action: "spam" });
    await deliver(
      fill(FIXTURES.gmail, {
        TO: c.address,
        INBOX: c.address,
        IN_REPLY_TO: c.replyId,
        REFERENCES: c.replyId,
      }),
      {
        to: c.address,
      },
    );
    expect(await ticketOf(c.ws.token, c.ticket.id)).toMatchObject({ status: "spam", message_count: 3 });
  });

  it("follows a merged ticket into the one it was merged into", async () => {
    const c = await conversation();
    const other = await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: c.ws.token,
      body: {
        inbox_id: (await ticketInbox(c.ws.token, c.ticket.id)) as string,
        customer: { email: CUSTOMER },
        subject: "Also",
      },
    });
    await manage(c.ws.token, c.ticket.id, { action: "merge", into_ticket_id: other.body.id });
    const raw = fill(FIXTURES.apple, {
      TO: c.replyAddress,
      INBOX: c.address,
      IN_REPLY_TO: "<x@y.z>",
      REFERENCES: "<x@y.z>",
    });
    await deliver(raw, { to: c.replyAddress });
    const messages = await messagesOf(c.ws.token, other.body.id);
    expect(messages.at(-1)?.stripped_text).toBe("It started smoking again this morning.\n\nAda");
  });

  it("stores the same mail delivered twice once", async () => {
    const c = await conversation();
    const raw = fill(FIXTURES.gmail, {
      TO: c.address,
      INBOX: c.address,
      IN_REPLY_TO: c.replyId,
      REFERENCES: c.replyId,
    });
    await deliver(raw, { to: c.address });
    expect(await deliver(raw, { to: c.address })).toEqual({ outcome: "accepted" });
    expect((await ticketOf(c.ws.token, c.ticket.id)).message_count).toBe(3);
  });
});

const ticketInbox = async (token: string, id: string) =>
  (await callJson<{ inbox_id: string }>("GET", `/v1/tickets/${id}`, { token })).body.inbox_id;

describe("threading that must not happen", () => {
  it("refuses a reply address whose token was altered or guessed", async () => {
    const c = await conversation();
    const at = c.replyAddress.lastIndexOf("@");
    const last = c.replyAddress[at - 1] === "0" ? "1" : "0";
    const altered = `${c.replyAddress.slice(0, at - 1)}${last}${c.replyAddress.slice(at)}`;
    const guessed = `${c.address.split("@")[0]}+${"7".repeat(46)}@acme.test`;
    for (const to of [altered, guessed]) {
      const result = await deliver(fill(FIXTURES.forged, { TO: to, FROM: "mallory@example.net" }), {
        to,
        from: "mallory@example.net",
      });
      expect(result).toEqual({
        outcome: "rejected",
        reason: `The reply address ${to} is not valid (it was altered or never issued); write to ${c.address} instead.`,
      });
    }
    expect((await ticketOf(c.ws.token, c.ticket.id)).message_count).toBe(2);
    expect((await ticketsOf(c.ws.token)).length).toBe(1);
  });

  it("honours a [client id] subject tag only from that ticket's customer", async () => {
    const c = await conversation();
    const tagged = (from: string) =>
      fill(FIXTURES.forged, { TO: c.address, FROM: from }).replace(
        "Subject: Re: Printer on fire",
        `Subject: About [${c.ticket.client_id}] again`,
      );
    await deliver(tagged(CUSTOMER), { to: c.address });
    expect((await ticketOf(c.ws.token, c.ticket.id)).message_count).toBe(3);
    await deliver(tagged("mallory@example.net"), { to: c.address, from: "mallory@example.net" });
    const tickets = await ticketsOf(c.ws.token);
    expect(tickets.length).toBe(2);
    expect(tickets[0]?.customer.email).toBe("mallory@example.net");
  });

  it("never threads into another workspace's ticket by its Message-IDs", async () => {
    const c = await conversation();
    const other = await conversation();
    const raw = fill(FIXTURES.gmail, {
      TO: other.address,
      INBOX: other.address,
      IN_REPLY_TO: c.replyId,
      REFERENCES: `${c.firstId} ${c.replyId}`,
    });
    await deliver(raw, { to: other.address });
    expect((await ticketOf(c.ws.token, c.ticket.id)).message_count).toBe(2);
    expect((await ticketsOf(other.ws.token)).map((t) => t.message_count)).toEqual([1, 2]);
  });

  it("opens a new ticket for a reply to a deleted ticket's address", async () => {
    const c = await conversation();
    await callJson("DELETE", `/v1/tickets/${c.ticket.id}`, { token: c.ws.token });
    const raw = fill(FIXTURES.apple, {
      TO: c.replyAddress,
      INBOX: c.address,
      IN_REPLY_TO: c.replyId,
      REFERENCES: c.replyId,
    });
    expect(await deliver(raw, { to: c.replyAddress })).toEqual({ outcome: "accepted" });
    const [ticket, ...rest] = await ticketsOf(c.ws.token);
    expect(rest).toEqual([]);
    expect(ticket).toMatchObject({ subject: "Re: Printer on fire", message_count: 1 });
  });
});
