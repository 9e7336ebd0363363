import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, eventsOf, eventually, ticketWorkspace } from "./helpers";

type Message = { id: string; ticket_id: string; status: string; is_draft: boolean; email_id: string | null };
type Ticket = { id: string; message_count: number; status: string };

async function setup(options: Parameters<typeof ticketWorkspace>[1] = {}) {
  const { ws, inbox, ticket, domain } = await ticketWorkspace("atomic", options);
  const post = (body: Record<string, unknown>) =>
    callJson<Message>("POST", `/v1/tickets/${ticket.id}/messages`, { token: ws.token, body });
  const emails = async () =>
    (await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/emails", { token: ws.token })).body.data;
  return { ws, inbox, ticket, post, emails, domain };
}

/** A real trigger that makes every insert into `table` fail, as a D1 error would, until dropped. */
async function failInserts(table: string) {
  const name = `fail_${table}_${crypto.randomUUID().replaceAll("-", "")}`;
  await env.DB_2.exec(
    `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`,
  );
  return () => env.DB_2.exec(`DROP TRIGGER ${name};`);
}

describe("sending a draft", () => {
  it("sends once when two sends race: one 200, one 409, one email, one message.created", async () => {
    const { ws, post, emails } = await setup();
    const draft = (await post({ type: "reply", body_text: "Fixed it", draft: true })).body;
    const answers = await Promise.all(
      [0, 1, 2].map(() => call("POST", `/v1/messages/${draft.id}/send`, { token: ws.token })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await emails()).toHaveLength(1);
    expect((await eventsOf(ws.accountId)).filter((e) => e.event === "message.created")).toHaveLength(1);
  });

  it("accepts an empty body (curl -X POST) and still validates a body that is sent", async () => {
    const { ws, post } = await setup();
    const draft = (await post({ type: "note", body_text: "Internal", draft: true })).body;
    const bad = await call("POST", `/v1/messages/${draft.id}/send`, {
      token: ws.token,
      body: { status_after_send: "bogus" },
    });
    expect(bad.status).toBe(400);
    // What `curl -X POST -H 'Content-Type: application/json' .../send` and many SDKs send.
    const bare = await call("POST", `/v1/messages/${draft.id}/send`, {
      token: ws.token,
      headers: { "Content-Type": "application/json" },
    });
    expect(bare.status).toBe(200);
    expect(await bare.json()).toMatchObject({ is_draft: false, status: "sent" });
    // A route whose body is required says what is missing, not "Malformed JSON".
    const manage = await callJson<{ details: unknown[] }>("POST", `/v1/tickets/${draft.ticket_id}/manage`, {
      token: ws.token,
      headers: { "Content-Type": "application/json" },
    });
    expect(manage.status).toBe(400);
    expect(manage.body.details.length).toBeGreaterThan(0);
  });

  it("gives the draft back when its email is refused, so it can be fixed and sent", async () => {
    const { ws, post, emails } = await setup();
    await callJson("POST", "/v1/emails/suppressions", {
      token: ws.token,
      body: { email: "ada@example.com" },
    });
    const draft = (await post({ type: "reply", body_text: "Hi", draft: true })).body;
    expect((await call("POST", `/v1/messages/${draft.id}/send`, { token: ws.token })).status).toBe(422);
    const after = await callJson<Message>("GET", `/v1/messages/${draft.id}`, { token: ws.token });
    expect(after.body).toMatchObject({ is_draft: true, status: "draft" });
    expect(await emails()).toEqual([]);
    expect(
      (await call("PATCH", `/v1/messages/${draft.id}`, { token: ws.token, body: { body_text: "Hi!" } }))
        .status,
    ).toBe(200);
  });
});

describe("ticket counters", () => {
  it("counts 10 notes posted at once as 10", async () => {
    const { ws, ticket, post } = await setup();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post({ type: "note", body_text: `n${i}` })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
    const after = await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token });
    expect(after.body.message_count).toBe(ticket.message_count + 10);
  });
});

describe("a reply and its email commit together", () => {
  it("leaves no email behind when the message cannot be stored", async () => {
    const { ws, ticket, post, emails } = await setup({ overrides: { emails_per_hour: 5 } });
    const restore = await failInserts("messages");
    try {
      expect((await post({ type: "reply", body_text: "Lost" })).status).toBe(500);
    } finally {
      await restore();
    }
    expect(await emails()).toEqual([]);
    const after = await callJson<Ticket>("GET", `/v1/tickets/${ticket.id}`, { token: ws.token });
    expect(after.body.message_count).toBe(ticket.message_count);
    // The quota it held was given back.
    const usage = await callJson<{ quotas: Record<string, { current: number }> }>(
      "GET",
      `/v1/accounts/${ws.accountId}/usage`,
      { token: ws.token },
    );
    expect(usage.body.quotas.emails_per_hour?.current).toBe(0);
  });

  it("compose leaves no email behind when the ticket cannot be stored", async () => {
    const { ws, inbox, emails } = await setup();
    const restore = await failInserts("tickets");
    try {
      const answer = await call("POST", "/v1/tickets/compose", {
        token: ws.token,
        body: { inbox_id: inbox.id, to: "grace@example.com", subject: "Hello", body_text: "Hi" },
      });
      expect(answer.status).toBe(500);
    } finally {
      await restore();
    }
    expect(await emails()).toEqual([]);
  });

  it("keeps a reply's attachment once in R2: the email carries the message's file", async () => {
    const { ws, post } = await setup();
    const reply = (
      await post({
        type: "reply",
        body_text: "See attached",
        attachments: [{ filename: "notes.txt", content: btoa("the bytes"), content_type: "text/plain" }],
      })
    ).body;
    const email = reply.email_id as string;
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/emails/${email}`, { token: ws.token })).body
          .status === "sent",
    );
    const stored = await env.FILES.list({ prefix: `emails/${email}/` });
    expect(stored.objects.map((o) => o.key)).toEqual([`emails/${email}/message.eml`]);
    const mime = await (await call("GET", `/v1/emails/${email}/content`, { token: ws.token })).text();
    expect(mime).toContain(btoa("the bytes"));
  });
});
