import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, errorBody, ticketWorkspace } from "./helpers";

type Details = { details: Array<{ path: string; message: string }> };

/** D1 refuses a row (and a single value) larger than this in production; local SQLite does not. */
const D1_ROW_LIMIT = 2_000_000;

const setup = () => ticketWorkspace("size");

const paths = (body: unknown) => (body as Details).details.map((d) => d.path);

/** Bytes of the row's text columns as SQLite stores them (UTF-8). */
async function rowBytes(table: string, id: string) {
  const columns = await env.DB_2.prepare(`SELECT name FROM pragma_table_info('${table}')`).all<{
    name: string;
  }>();
  const sum = columns.results.map((c) => `coalesce(length(CAST("${c.name}" AS BLOB)), 0)`).join(" + ");
  const row = await env.DB_2.prepare(`SELECT ${sum} AS bytes FROM ${table} WHERE id = ?`)
    .bind(id)
    .first<{ bytes: number }>();
  return row?.bytes ?? 0;
}

describe("stored fields are bounded by what a D1 row holds", () => {
  it("refuses 1.4 M characters of html and of text in POST /v1/emails with 400 naming both", async () => {
    const { ws, domain } = await setup();
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${domain}`,
        to: "b@example.com",
        subject: "x",
        html: "h".repeat(1_400_000),
        text: "t".repeat(1_400_000),
      },
    });
    expect(status).toBe(400);
    expect(paths(body).sort()).toEqual(["body.html", "body.text"]);
  });

  it("answers 413 when html and text together would not fit the email's row, and stores the largest it accepts in under 2 MB", async () => {
    const { ws, domain } = await setup();
    const send = (html: number, text: number) =>
      callJson<{ id: string }>("POST", "/v1/emails", {
        token: ws.token,
        body: {
          from: `a@${domain}`,
          to: "b@example.com",
          subject: "x",
          html: "h".repeat(html),
          text: "t".repeat(text),
        },
      });
    const tooMuch = await send(990_000, 990_000);
    expect(tooMuch.status).toBe(413);
    expect(tooMuch.body).toMatchObject(errorBody("Message too large", "message_too_large"));
    const fits = await send(990_000, 890_000);
    expect(fits.status).toBe(200);
    expect(await rowBytes("emails", fits.body.id)).toBeLessThan(D1_ROW_LIMIT);
  });

  it("answers 413 for a raw message whose bodies would not fit the email's row", async () => {
    const { ws, domain } = await setup();
    const raw = [
      `From: a@${domain}`,
      "To: b@example.com",
      "Subject: big",
      'Content-Type: multipart/alternative; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "t".repeat(1_100_000),
      "--b",
      "Content-Type: text/html",
      "",
      "h".repeat(1_100_000),
      "--b--",
      "",
    ].join("\r\n");
    const { status, body } = await callJson("POST", "/v1/emails/raw", {
      token: ws.token,
      body: { mail_from: "", rcpt_to: ["b@example.com"], raw: btoa(raw) },
    });
    expect(status).toBe(413);
    expect(body).toMatchObject({ code: "message_too_large" });
  });

  it("refuses custom headers over 16 KB", async () => {
    const { ws, domain } = await setup();
    const headers = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`X-H${i}`, "v".repeat(100)]));
    const { status, body } = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: `a@${domain}`, to: "b@example.com", subject: "x", text: "x", headers },
    });
    expect(status).toBe(400);
    expect(paths(body)).toEqual(["body.headers"]);
  });

  it("refuses ticket metadata over 16 KB on create and PATCH, with 400", async () => {
    const { ws, inbox, ticket } = await setup();
    const huge = { blob: "x".repeat(3_000_000) };
    const created = await callJson("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "x", metadata: huge },
    });
    expect(created.status).toBe(400);
    expect(paths(created.body)).toEqual(["body.metadata"]);
    const over = { blob: "x".repeat(16_384) };
    const patched = await callJson("PATCH", `/v1/tickets/${ticket.id}`, {
      token: ws.token,
      body: { metadata: over },
    });
    expect(patched.status).toBe(400);
    expect(paths(patched.body)).toEqual(["body.metadata"]);
    const fits = { blob: "x".repeat(16_000) };
    expect(
      (await call("PATCH", `/v1/tickets/${ticket.id}`, { token: ws.token, body: { metadata: fits } })).status,
    ).toBe(200);
  });

  it("bounds message bodies so that the message and its message.created event each fit a row", async () => {
    const { ws, ticket } = await setup();
    const post = (body: Record<string, unknown>) =>
      callJson<{ id: string }>("POST", `/v1/tickets/${ticket.id}/messages`, { token: ws.token, body });
    const over = await post({ type: "note", body_text: "x".repeat(750_000) });
    expect(over.status).toBe(400);
    expect(paths(over.body)).toEqual(["body.body_text"]);
    // Quotes and line breaks double in JSON: the limit counts them as the event will store them.
    const quoted = await post({ type: "note", body_text: '"'.repeat(600_000) });
    expect(quoted.status).toBe(400);
    const largest = await post({
      type: "customer",
      body_text: '"\n'.repeat(187_499),
      body_html: "h".repeat(749_998),
    });
    expect(largest.status).toBe(201);
    expect(await rowBytes("messages", largest.body.id)).toBeLessThan(D1_ROW_LIMIT);
    const event = await env.DB_2.prepare(
      "SELECT id FROM events WHERE account_id = ? AND event = 'message.created' ORDER BY created_at DESC LIMIT 1",
    )
      .bind(ws.accountId)
      .first<{ id: string }>();
    expect(await rowBytes("events", event?.id ?? "")).toBeLessThan(D1_ROW_LIMIT);
    expect(await rowBytes("events", event?.id ?? "")).toBeGreaterThan(1_500_000);
  });

  it("bounds the first message of POST /v1/tickets and a draft's edit like any message", async () => {
    const { ws, inbox, ticket } = await setup();
    const created = await callJson("POST", "/v1/tickets", {
      token: ws.token,
      body: {
        inbox_id: inbox.id,
        customer: { email: "ada@example.com" },
        subject: "x",
        message: { body_html: "h".repeat(750_000) },
      },
    });
    expect(created.status).toBe(400);
    expect(paths(created.body)).toEqual(["body.message.body_html"]);
    const draft = await callJson<{ id: string }>("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "reply", body_text: "x", draft: true },
    });
    const edit = await callJson("PATCH", `/v1/messages/${draft.body.id}`, {
      token: ws.token,
      body: { body_text: "x".repeat(750_000) },
    });
    expect(edit.status).toBe(400);
    expect(paths(edit.body)).toEqual(["body.body_text"]);
  });
});

describe("request bodies are capped per route family", () => {
  it("answers 413 with the JSON error body past 4 MB on ordinary routes", async () => {
    const { ws } = await setup();
    const rawBody = JSON.stringify({
      email: "big@example.com",
      metadata: { x: "y".repeat(4 * 1024 * 1024) },
    });
    const res = await call("POST", "/v1/customers", {
      token: ws.token,
      rawBody,
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      ...errorBody("Request body too large", "request_too_large"),
      message: expect.stringContaining("4194304"),
      limit: 4 * 1024 * 1024,
    });
  });

  it("counts a streamed body without Content-Length too", async () => {
    const { ws } = await setup();
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 5) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await exports.default.fetch(
      new Request("http://localhost/v1/customers", {
        method: "POST",
        headers: { Authorization: `Bearer ${ws.token}`, "Content-Type": "application/json" },
        body,
      }),
    );
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "request_too_large" });
  });

  it("lets attachment routes take far more, up to 40 MB", async () => {
    const { ws, ticket, domain } = await setup();
    const content = "A".repeat(8 * 1024 * 1024);
    const note = await call("POST", `/v1/tickets/${ticket.id}/messages`, {
      token: ws.token,
      body: { type: "note", body_text: "x", attachments: [{ filename: "big.bin", content }] },
    });
    expect(note.status).toBe(201);
    const tooBig = await call("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${domain}`,
        to: "b@example.com",
        subject: "x",
        text: "x",
        attachments: [{ filename: "big.bin", content: "A".repeat(40 * 1024 * 1024) }],
      },
    });
    expect(tooBig.status).toBe(413);
    expect(await tooBig.json()).toMatchObject({ code: "request_too_large", limit: 40 * 1024 * 1024 });
  });

  it("documents each route's limit as a 413 in the OpenAPI document", async () => {
    type Doc = {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const { body } = await callJson<Doc>("GET", "/v1/openapi.json");
    expect(body.paths["/v1/customers"]?.post?.responses["413"]?.description).toContain("4 MB");
    const send = body.paths["/v1/emails"]?.post?.responses["413"]?.description;
    expect(send).toContain("25 MB");
    expect(send).toContain("40 MB");
    expect(body.paths["/v1/customers"]?.get?.responses["413"]).toBeUndefined();
  });
});
