import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashToken } from "../../src/auth/token";
import { smtpLogQueries } from "../../src/features/smtp-logs/smtp-logs.repo";
import type { SmtpLogRecord } from "../../src/features/smtp-logs/smtp-logs.schemas";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { addKey, call, callJson, db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type LogList = {
  data: Array<Record<string, unknown>>;
  pagination: { limit: number; offset: number; total: number };
};

const record = (overrides: Partial<SmtpLogRecord> = {}): SmtpLogRecord => ({
  session_id: crypto.randomUUID(),
  client_ip: "203.0.113.7",
  tls: "TLSv1.3",
  auth: "succeeded",
  key_hash: null,
  mail_from: "a@acme.test",
  rcpt_to: ["ada@example.com", "hidden@example.com"],
  size: 1234,
  outcome: "accepted",
  reply_code: 250,
  reply: "250 2.0.0 Ok: queued as eml_x",
  email_id: "eml_x",
  at: new Date().toISOString(),
  ...overrides,
});

const post = (logs: SmtpLogRecord[], token: string | null = env.RELAY_TOKEN) =>
  call("POST", "/_relay/smtp-logs", { token, body: { logs } });

const list = (accountId: string, token: string, query = "") =>
  callJson<LogList>("GET", `/v1/accounts/${accountId}/smtp-logs${query}`, { token });

describe("SMTP logs", () => {
  it("records the relay's rows under the key's account, newest first", async () => {
    const ws = await seedWorkspace();
    const keyHash = await hashToken(ws.token);
    const base = Date.now() - 60_000;
    const res = await post([
      record({ key_hash: keyHash, at: new Date(base).toISOString() }),
      record({
        key_hash: keyHash,
        at: new Date(base + 1).toISOString(),
        outcome: "rejected",
        reply_code: 550,
        reply: "550 5.7.1 not verified",
        email_id: null,
      }),
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ recorded: 2 });

    const { status, body } = await list(ws.accountId, ws.token, "?limit=1");
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    expect(body.data[0]).toEqual({
      id: expect.stringMatching(/^smtp_[0-9A-Z]{26}$/),
      session_id: expect.any(String),
      client_ip: "203.0.113.7",
      tls: "TLSv1.3",
      auth: "succeeded",
      key_id: ws.keyId,
      key_prefix: ws.token.slice(0, 10),
      mail_from: "a@acme.test",
      rcpt_to: ["ada@example.com", "hidden@example.com"],
      size: 1234,
      outcome: "rejected",
      reply_code: 550,
      reply: "550 5.7.1 not verified",
      email_id: null,
      created_at: new Date(base + 1).toISOString(),
    });
  });

  it("attributes a failed AUTH with a revoked key to its owner; an unknown password to nobody", async () => {
    const ws = await seedWorkspace();
    const revoked = await addKey(ws.accountId, "write");
    await callJson("POST", `/_ops/keys/${revoked.id}/revoke`, { token: env.OPS_TOKEN });
    const failed = { auth: "failed", outcome: "auth_failed", reply_code: 535, email_id: null } as const;
    await post([
      record({ ...failed, key_hash: await hashToken(revoked.token), reply: "535 5.7.8 revoked" }),
      record({ ...failed, key_hash: await hashToken("sk_not_a_key_at_all"), reply: "535 5.7.8 unknown" }),
    ]);
    const { body } = await list(ws.accountId, ws.token);
    expect(body.data.map((l) => [l.reply, l.key_id])).toEqual([["535 5.7.8 revoked", revoked.id]]);
    // A row of no workspace goes to the first database. Nothing of the typed password is kept: no
    // prefix, no account.
    const orphan = await env.DB.prepare(
      "SELECT account_id, key_prefix FROM smtp_logs WHERE reply = '535 5.7.8 unknown'",
    ).first();
    expect(orphan).toEqual({ account_id: null, key_prefix: null });
  });

  it("refuses writes without the relay token, before reading the body", async () => {
    expect((await post([record()], null)).status).toBe(401);
    expect((await post([record()], "rly_wrong")).status).toBe(401);
    const bad = await call("POST", "/_relay/smtp-logs", { token: "rly_wrong", body: { nonsense: 1 } });
    expect(bad.status).toBe(401);
    const malformed = await call("POST", "/_relay/smtp-logs", {
      token: env.RELAY_TOKEN,
      body: { logs: [{ ...record(), key_hash: "plaintext-password" }] },
    });
    expect(malformed.status).toBe(400);
  });

  it("never shows another workspace's logs", async () => {
    const a = await seedWorkspace();
    const b = await seedWorkspace();
    await post([record({ key_hash: await hashToken(b.token) })]);
    expect((await call("GET", `/v1/accounts/${b.accountId}/smtp-logs`, { token: a.token })).status).toBe(404);
    expect((await list(a.accountId, a.token)).body.pagination.total).toBe(0);
  });

  it("serves the list from the (account_id, created_at) index", async () => {
    const { page, total } = smtpLogQueries(db(), "acc_x", 50, 0);
    expectIndexed(await planOf(page), "smtp_logs");
    expectIndexed(await planOf(total), "smtp_logs");
  });

  it("deletes rows past the account's request-log retention, and unattributed ones after a week", async () => {
    const short = await seedWorkspace();
    await call("PATCH", `/v1/accounts/${short.accountId}`, {
      token: short.token,
      body: { request_log_retention: "5m" },
    });
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    const keyHash = await hashToken(short.token);
    const orphan = "f".repeat(64);
    await post([
      record({ key_hash: keyHash, at: at(6 * 60_000), reply: "old" }),
      record({ key_hash: keyHash, at: at(4 * 60_000), reply: "young" }),
      record({ key_hash: orphan, at: at(8 * 86_400_000), reply: "orphan-old" }),
      record({ key_hash: orphan, at: at(6 * 86_400_000), reply: "orphan-young" }),
    ]);
    const controller = createScheduledController({ cron: CRON.everyMinute, scheduledTime: now });
    await worker.scheduled(controller, env, createExecutionContext());
    // The workspace's rows are in its shard, the rows of nobody in the first: the prune runs in each.
    const left = (shard: D1Database) =>
      shard
        .prepare(
          "SELECT reply FROM smtp_logs WHERE reply IN ('old','young','orphan-old','orphan-young') ORDER BY reply",
        )
        .all<{ reply: string }>();
    expect((await left(env.DB_2)).results.map((r) => r.reply)).toEqual(["young"]);
    expect((await left(env.DB)).results.map((r) => r.reply)).toEqual(["orphan-young"]);
  });
});
