import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, ticketWorkspace } from "./helpers";

type Ticket = { id: string; subject: string };
type Message = { id: string; attachments: Array<{ id: string }> };
type Details = { details: Array<{ path: string; message: string }> };
type List<T> = { data: T[]; pagination: { total: number } };

const setup = () => ticketWorkspace("bad");

const paths = (body: unknown) => (body as Details).details.map((d) => d.path);

/** An attachment row as an older version stored it, before its fields were checked. */
async function legacyAttachment(accountId: string, messageId: string, fields: Record<string, string>) {
  const id = `att_${crypto.randomUUID().replaceAll("-", "").slice(0, 26)}`;
  const key = `messages/${messageId}/${id}`;
  await env.FILES.put(key, "hello");
  await env.DB_2.prepare(
    "INSERT INTO message_attachments (id, account_id, message_id, filename, content_type, size, key, created_at) VALUES (?, ?, ?, ?, ?, 5, ?, ?)",
  )
    .bind(id, accountId, messageId, fields.filename, fields.contentType, key, Date.now())
    .run();
  return id;
}

describe("path parameters are decoded once", () => {
  it("answers DELETE /v1/emails/suppressions/%25 with 404, not 500", async () => {
    const { ws } = await setup();
    const { status, body } = await callJson("DELETE", "/v1/emails/suppressions/%25", { token: ws.token });
    expect(status).toBe(404);
    expect(body).toMatchObject(errorBody("Not found", "not_found"));
  });

  it("deletes the suppression of an address that contains % or +", async () => {
    const { ws } = await setup();
    for (const email of ["100%off@example.com", "a+b@example.com"]) {
      expect(
        (await call("POST", "/v1/emails/suppressions", { token: ws.token, body: { email } })).status,
      ).toBe(201);
      const removed = await callJson("DELETE", `/v1/emails/suppressions/${encodeURIComponent(email)}`, {
        token: ws.token,
      });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ email, deleted: true });
    }
    const left = await callJson<List<unknown>>("GET", "/v1/emails/suppressions", { token: ws.token });
    expect(left.body.pagination.total).toBe(0);
  });
});

describe("attachments are checked before anything is stored", () => {
  it("answers 400 for a note attachment whose content is not base64, and stores nothing", async () => {
    const { ws, ticket } = await setup();
    const { status, body } = await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "see file", attachments: [{ filename: "a.txt", content: "!!!!" }] },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject(errorBody("Invalid request", "validation_error"));
    expect(paths(body)).toEqual(["body.attachments.0.content"]);
    const messages = await callJson<List<unknown>>("GET", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
    });
    expect(messages.body.pagination.total).toBe(0);
  });

  it("accepts base64 with line breaks, as mail tools wrap it", async () => {
    const { ws, ticket } = await setup();
    const { status } = await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "x", attachments: [{ filename: "a.txt", content: "aGVs\r\nbG8=" }] },
    });
    expect(status).toBe(201);
  });

  it("answers 400 for a CR/LF in an attachment content_type on emails, messages and compose", async () => {
    const { ws, ticket, inbox, domain } = await setup();
    const attachments = [{ filename: "a.txt", content: "aGVsbG8=", content_type: "text/plain\r\nX-Evil: 1" }];
    const attempts = [
      ["/v1/emails", { from: `a@${domain}`, to: "b@example.com", subject: "x", text: "x", attachments }],
      [`/v1/tickets/${ticket.id}/messages`, { type: "note", body_text: "x", attachments }],
      [`/v1/tickets/${ticket.id}/messages`, { type: "reply", body_text: "x", attachments }],
      [
        "/v1/tickets/compose",
        { inbox_id: inbox.id, to: "new@example.com", subject: "x", body_text: "x", attachments },
      ],
    ] as const;
    for (const [path, body] of attempts) {
      const answer = await callJson("POST", path, { token: ws.token, body });
      expect(answer.status, path).toBe(400);
      expect(paths(answer.body), path).toEqual(["body.attachments.0.content_type"]);
    }
    // compose checked its input before creating the customer.
    const customers = await callJson<List<unknown>>("GET", "/v1/customers?email=new%40example.com", {
      token: ws.token,
    });
    expect(customers.body.pagination.total).toBe(0);
  });

  it("answers 400 for a filename with a control character or a lone surrogate, and a content_id the builder would refuse", async () => {
    const { ws, ticket, domain } = await setup();
    for (const filename of ["a\r\nb.txt", "\ud800.txt"]) {
      const answer = await callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
        token: ws.token,
        body: { type: "note", body_text: "x", attachments: [{ filename, content: "aGVsbG8=" }] },
      });
      expect(answer.status, filename).toBe(400);
      expect(paths(answer.body)).toEqual(["body.attachments.0.filename"]);
    }
    const email = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${domain}`,
        to: "b@example.com",
        subject: "x",
        html: '<img src="cid:logo">',
        attachments: [{ filename: "logo.png", content: "aGVsbG8=", content_id: "lógo" }],
      },
    });
    expect(email.status).toBe(400);
    expect(paths(email.body)).toEqual(["body.attachments.0.content_id"]);
  });

  it("downloads an attachment stored with an unusable content type as application/octet-stream", async () => {
    const { ws, ticket } = await setup();
    const note = await callJson<Message>("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "x" },
    });
    const id = await legacyAttachment(ws.accountId, note.body.id, {
      filename: "a.txt",
      contentType: "text/plain\r\nX-Evil: 1",
    });
    const res = await call("GET", `/v1/messages/${note.body.id}/attachments/${id}/content`, {
      token: ws.token,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(res.headers.get("X-Evil")).toBeNull();
    expect(await res.text()).toBe("hello");
  });
});

describe("what the MIME builder would refuse is refused when the email is accepted", () => {
  it("answers 400 for a 2,000-character header word, and accepts a long value that folds", async () => {
    const { ws, domain } = await setup();
    const send = (headers: Record<string, string>) =>
      callJson("POST", "/v1/emails", {
        token: ws.token,
        body: { from: `a@${domain}`, to: "b@example.com", subject: "x", text: "x", headers },
      });
    const word = await send({ "X-Long": "a".repeat(2000) });
    expect(word.status).toBe(400);
    expect(paths(word.body)).toEqual(["body.headers"]);
    expect((word.body as { message: string }).message).toContain("X-Long");
    expect((await send({ "X-Long": "word ".repeat(400).trim() })).status).toBe(200);
  });

  it("answers 400 for a subject word too long for a header line", async () => {
    const { ws, domain } = await setup();
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: `a@${domain}`, to: "b@example.com", subject: "a".repeat(998), text: "x" },
    });
    expect(status).toBe(400);
    expect(paths(body)).toEqual(["body.subject"]);
  });

  it("answers 400 for a raw message whose subject could not be written back", async () => {
    const { ws, domain } = await setup();
    const raw = `From: a@${domain}\r\nTo: b@example.com\r\nSubject: ${"a".repeat(1500)}\r\n\r\nhello\r\n`;
    const { status, body } = await callJson("POST", "/v1/emails/raw", {
      token: ws.token,
      body: { mail_from: "", rcpt_to: ["b@example.com"], raw: btoa(raw) },
    });
    expect(status).toBe(400);
    expect(paths(body)).toEqual(["body.raw"]);
  });

  it("sends a raw message whose From name decodes to a line break, with a space instead", async () => {
    const { ws, domain } = await setup();
    const name = btoa("Acme\r\nBcc: eve@evil.test");
    const raw = `From: =?UTF-8?B?${name}?= <a@${domain}>\r\nTo: b@example.com\r\nSubject: hi\r\n\r\nhello\r\n`;
    const sent = await callJson<{ id: string }>("POST", "/v1/emails/raw", {
      token: ws.token,
      body: { mail_from: "", rcpt_to: ["b@example.com"], raw: btoa(raw) },
    });
    expect(sent.status).toBe(200);
    const email = await callJson<{ from: string }>("GET", `/v1/emails/${sent.body.id}`, { token: ws.token });
    expect(email.body.from).not.toMatch(/[\r\n]/);
  });

  it("refuses line breaks in names and subjects that become mail headers (inboxes, customers, tickets, compose)", async () => {
    const { ws, inbox, ticket, domain } = await setup();
    const attempts: Array<[string, string, Record<string, unknown>, string]> = [
      [
        "POST",
        "/v1/inboxes",
        { name: "Support\r\nBcc: x@evil.test", email_address: `x@${domain}` },
        "body.name",
      ],
      ["PATCH", `/v1/inboxes/${inbox.id}`, { name: "Support\nBcc: x@evil.test" }, "body.name"],
      ["POST", "/v1/customers", { email: "eve@example.com", name: "Eve\r\nBcc: x@evil.test" }, "body.name"],
      [
        "POST",
        "/v1/tickets",
        { inbox_id: inbox.id, customer: { email: "eve@example.com", name: "E\rve" }, subject: "Hi" },
        "body.customer.name",
      ],
      [
        "POST",
        "/v1/tickets",
        { inbox_id: inbox.id, customer_id: "x", subject: "Hi\r\nBcc: x" },
        "body.subject",
      ],
      ["PATCH", `/v1/tickets/${ticket.id}`, { subject: "Hi\nthere" }, "body.subject"],
      [
        "POST",
        "/v1/tickets/compose",
        { inbox_id: inbox.id, to: "eve@example.com", name: "E\nve", subject: "Hi", body_text: "x" },
        "body.name",
      ],
      [
        "POST",
        "/v1/tickets/compose",
        { inbox_id: inbox.id, to: "eve@example.com", subject: "Hi\r\nX: y", body_text: "x" },
        "body.subject",
      ],
    ];
    for (const [method, path, body, field] of attempts) {
      const answer = await callJson(method, path, { token: ws.token, body });
      expect(answer.status, `${method} ${path} ${field}`).toBe(400);
      expect(paths(answer.body), `${method} ${path}`).toEqual([field]);
    }
  });

  it("answers 400 when one email names a tag twice", async () => {
    const { ws, domain } = await setup();
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${domain}`,
        to: "b@example.com",
        subject: "x",
        text: "x",
        tags: [
          { name: "kind", value: "a" },
          { name: "kind", value: "b" },
        ],
      },
    });
    expect(status).toBe(400);
    expect(paths(body)).toEqual(["body.tags"]);
  });
});

describe("q filters match their text literally", () => {
  it("finds order_123 through q and nothing that _ or % would match as wildcards", async () => {
    const { ws, inbox } = await setup();
    const subjects = [
      "order_123",
      "order1123",
      "orderX123",
      "100% sure",
      "1000 sure",
      "back\\slash",
      "backslash",
    ];
    for (const subject of subjects) {
      await call("POST", "/v1/tickets", {
        token: ws.token,
        body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject },
      });
    }
    const found = async (q: string) => {
      const { body } = await callJson<List<Ticket>>("GET", `/v1/tickets?q=${encodeURIComponent(q)}`, {
        token: ws.token,
      });
      expect(body.pagination.total).toBe(body.data.length);
      return body.data.map((t) => t.subject);
    };
    expect(await found("order_123")).toEqual(["order_123"]);
    expect(await found("ORDER_1")).toEqual(["order_123"]);
    expect(await found("100%")).toEqual(["100% sure"]);
    expect(await found("k\\s")).toEqual(["back\\slash"]);
    // One character is shorter than the search index's 3-character sequences: a 400, not a scan.
    const short = await call("GET", `/v1/tickets?q=${encodeURIComponent("_")}`, { token: ws.token });
    expect(short.status).toBe(400);
  });
});
