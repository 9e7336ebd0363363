import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { droppedMailQueries } from "../../src/features/dropped-mail/dropped-mail.repo";
import { addKey, call, callJson, db, seedInbox, seedWorkspace } from "./helpers";
import { deliver, FIXTURES, fill, inboundWorkspace } from "./inbound-helpers";
import { expectIndexed, planOf } from "./query-plan";

interface DroppedBody {
  id: string;
  inbox_id: string;
  reason: string;
  detail: string | null;
  mail_from: string;
  rcpt_to: string;
  message_id: string | null;
  size: number;
  created_at: string;
}

interface ListBody {
  data: DroppedBody[];
  pagination: { limit: number; offset: number; total: number };
}

const list = (token: string, query = "") =>
  callJson<ListBody>("GET", `/v1/inbound/dropped${query}`, { token });

/** A workspace whose two inboxes dropped three mails, delivered through the real email handler. */
async function droppingWorkspace() {
  const { ws, inbox } = await inboundWorkspace();
  const second = await seedInbox(ws.accountId);
  const stray = "<campaign-1@news.acme.test>";
  const autoReply = fill(FIXTURES.autoReply, {
    TO: inbox.emailAddress,
    IN_REPLY_TO: stray,
    REFERENCES: stray,
  });
  expect(await deliver(autoReply, { to: inbox.emailAddress, from: "ada@example.com" })).toEqual({
    outcome: "accepted",
  });
  for (const to of [inbox, second]) {
    const own = fill(FIXTURES.plainText, { TO: to.emailAddress, FROM: to.emailAddress });
    await deliver(own, { to: to.emailAddress, from: to.emailAddress });
  }
  return { ws, inbox, second, autoReply };
}

describe("GET /v1/inbound/dropped", () => {
  it("lists the mail the workspace's inboxes dropped, newest first, with the reason and the raw bytes", async () => {
    const { ws, inbox, second, autoReply } = await droppingWorkspace();
    const { status, body } = await list(ws.token);
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    expect(body.data.map((d) => [d.inbox_id, d.reason])).toEqual([
      [second.id, "own_address"],
      [inbox.id, "own_address"],
      [inbox.id, "auto_submitted"],
    ]);
    const auto = body.data[2];
    expect(auto).toEqual({
      id: expect.stringMatching(/^drp_[0-9A-HJKMNP-TV-Z]{26}$/),
      inbox_id: inbox.id,
      reason: "auto_submitted",
      detail: null,
      mail_from: "ada@example.com",
      rcpt_to: inbox.emailAddress,
      message_id: expect.stringMatching(/@mail\.example\.com>?$/),
      size: autoReply.length,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const raw = await call("GET", `/v1/inbound/dropped/${auto?.id}/raw`, { token: ws.token });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("content-type")).toBe("message/rfc822");
    expect(await raw.text()).toBe(autoReply);
  });

  it("filters by inbox and reason with exact totals and pages; read permission is enough", async () => {
    const { ws, inbox, second } = await droppingWorkspace();
    const reader = await addKey(ws.accountId, "read");
    const totalOf = async (query: string) => {
      const { status, body } = await list(reader.token, query);
      expect(status, query).toBe(200);
      return [body.pagination.total, body.data.map((d) => d.reason)];
    };
    expect(await totalOf(`?inbox_id=${inbox.id}`)).toEqual([2, ["own_address", "auto_submitted"]]);
    expect(await totalOf(`?inbox_id=${second.id}`)).toEqual([1, ["own_address"]]);
    expect(await totalOf("?reason=own_address")).toEqual([2, ["own_address", "own_address"]]);
    expect(await totalOf(`?reason=own_address&inbox_id=${inbox.id}`)).toEqual([1, ["own_address"]]);
    expect(await totalOf("?reason=loop")).toEqual([0, []]);
    expect(await totalOf("?limit=1&offset=2")).toEqual([3, ["auto_submitted"]]);
  });

  it("answers 400 for a bad filter, and shows another workspace nothing: its ids are 404", async () => {
    const { ws } = await droppingWorkspace();
    const other = await seedWorkspace();
    for (const [query, path] of [
      ["?reason=spam", "query.reason"],
      ["?inbox_id=support", "query.inbox_id"],
      ["?limit=101", "query.limit"],
    ] as const) {
      const { status, body } = await callJson<{ code: string; details: Array<{ path: string }> }>(
        "GET",
        `/v1/inbound/dropped${query}`,
        { token: ws.token },
      );
      expect(status, query).toBe(400);
      expect(body.code).toBe("validation_error");
      expect(body.details.map((d) => d.path)).toEqual([path]);
    }
    expect((await list(other.token)).body).toEqual({
      data: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
    const [first] = (await list(ws.token)).body.data;
    const foreign = await callJson("GET", `/v1/inbound/dropped/${first?.id}/raw`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: "not_found" });
  });

  it("answers 404 raw_not_found once the bytes are gone", async () => {
    const { ws } = await droppingWorkspace();
    const [first] = (await list(ws.token)).body.data;
    const key = await env.DB_2.prepare("SELECT raw_key FROM dropped_mail WHERE public_id = ?")
      .bind(first?.id)
      .first<string>("raw_key");
    await env.FILES.delete(key ?? "");
    const raw = await callJson("GET", `/v1/inbound/dropped/${first?.id}/raw`, { token: ws.token });
    expect(raw.status).toBe(404);
    expect(raw.body).toMatchObject({ code: "raw_not_found" });
  });

  it("serves every filter from an index, newest first without sorting", async () => {
    const accountId = "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
    const inboxId = "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
    for (const filter of [
      {},
      { inboxId },
      { reason: "loop" as const },
      { inboxId, reason: "loop" as const },
    ]) {
      const { page, total } = droppedMailQueries(db(), { accountId, ...filter }, 50, 0);
      expectIndexed(await planOf(page), "dropped_mail");
      expectIndexed(await planOf(total), "dropped_mail");
    }
  });
});
