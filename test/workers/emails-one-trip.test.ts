import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { BatchEmailBodySchema, SendEmailBodySchema } from "../../src/features/emails/emails.schemas";
import { sendBatch, sendEmail } from "../../src/features/emails/emails.send";
import type { EmailContext } from "../../src/features/emails/emails.service";
import { limitSql } from "../../src/features/usage/limits-sql";
import { limitsFor, type PlanName, parseQuotaOverrides, QUOTA_NAMES } from "../../src/lib/plans";
import { call, db, seedWorkspace, sendingWorkspace } from "./helpers";

/**
 * The real D1 binding, counting its round trips: each `batch` and each prepared statement's
 * run/all/first/raw is one; `prepare` and `bind` cost none. Statements go to the real batch as
 * the real objects they wrap.
 */
function countingD1(d1: D1Database) {
  const trips: string[] = [];
  /** How many values each statement bound: D1 allows at most 100. */
  const bound: number[] = [];
  const real = new WeakMap<object, D1PreparedStatement>();
  /** Each batch's statements, as their SQL. */
  const batches: string[][] = [];
  const sqlOf = new WeakMap<object, string>();
  const wrap = (statement: D1PreparedStatement, query: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind")
          return (...values: unknown[]) => {
            bound.push(values.length);
            return wrap(target.bind(...values), query);
          };
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (typeof prop === "string" && ["run", "all", "first", "raw"].includes(prop)) trips.push(prop);
          return value.apply(target, args);
        };
      },
    });
    real.set(proxy, statement);
    sqlOf.set(proxy, query);
    return proxy;
  };
  const binding = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          trips.push("batch");
          batches.push(statements.map((s) => sqlOf.get(s) ?? ""));
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        trips.push(String(prop));
        return value.apply(target, args);
      };
    },
  });
  return { binding, trips, bound, batches };
}

const contextFor = (accountId: string, d1: D1Database): EmailContext => ({
  db: createDb(d1),
  env: { FILES: env.FILES, EMAIL_QUEUE: env.EMAIL_QUEUE },
  accountId,
  now: Date.now(),
});

describe("accepting an email", () => {
  it("takes one D1 round trip: checks, quota and writes in one batch", async () => {
    const ws = await sendingWorkspace("one-trip.test", { plan: "free" });
    const { binding, trips, bound, batches } = countingD1(env.DB_2);
    const input = SendEmailBodySchema.parse({
      from: "Acme <hello@one-trip.test>",
      to: ["ada@example.com", "grace@example.com"],
      cc: "cc@example.com",
      bcc: "bcc@example.com",
      reply_to: "help@one-trip.test",
      subject: "Receipt",
      text: "Thanks!",
      html: "<p>Thanks!</p>",
      headers: { "X-Ref": "1" },
      tags: [{ name: "kind", value: "receipt" }],
      scheduled_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const answer = await sendEmail(contextFor(ws.accountId, binding), input, undefined);
    expect(trips).toEqual(["batch"]);
    expect(Math.max(...bound)).toBeLessThanOrEqual(100);
    // A refusal for a suppressed recipient is counted after its batch: none of its counting rides here.
    expect(batches[0]?.filter((q) => /\bsuppressed\b|email\.suppressed/.test(q))).toEqual([]);

    const id = (answer.body as { id: string }).id;
    const row = await env.DB_2.prepare(
      "SELECT connection_id, track_opens, (SELECT count(*) FROM email_recipients WHERE email_seq = emails.seq) AS recipients FROM emails WHERE id = ?",
    )
      .bind(id)
      .first<{ connection_id: string; track_opens: number; recipients: number }>();
    expect(row).toEqual({ connection_id: ws.connection.id, track_opens: 0, recipients: 4 });
    const usage = await env.DB_2.prepare(
      "SELECT emails_hour, storage_bytes FROM account_usage WHERE account_id = ?",
    )
      .bind(ws.accountId)
      .first<{ emails_hour: number; storage_bytes: number }>();
    expect(usage?.emails_hour).toBe(1);
    expect(usage?.storage_bytes).toBeGreaterThan(0);
  });

  it("refuses a spent quota from the same batch's reads, writing nothing", async () => {
    const ws = await sendingWorkspace("one-trip-full.test", {
      plan: "free",
      overrides: { emails_per_hour: 0 },
    });
    const { binding, trips } = countingD1(env.DB_2);
    const input = SendEmailBodySchema.parse({
      from: "hello@one-trip-full.test",
      to: "ada@example.com",
      subject: "Receipt",
      text: "Thanks!",
    });
    const refused = await sendEmail(contextFor(ws.accountId, binding), input, undefined).catch((e) => e);
    expect(refused).toMatchObject({
      status: 429,
      extras: { quota: "emails_per_hour", current: 0, limit: 0 },
    });
    expect(trips).toEqual(["batch"]);
    const written = await env.DB_2.prepare(
      "SELECT (SELECT count(*) FROM emails WHERE account_id = ?1) AS emails, (SELECT emails_hour + storage_bytes FROM account_usage WHERE account_id = ?1) AS usage",
    )
      .bind(ws.accountId)
      .first();
    expect(written).toEqual({ emails: 0, usage: 0 });
  });

  it("counts a refusal for a suppressed recipient in a batch of its own after the refusing one, writing no email", async () => {
    const ws = await sendingWorkspace("one-trip-gone.test", { plan: "free" });
    const suppressed = await call("POST", "/v1/suppressions", {
      token: ws.token,
      body: { email: "gone@example.com" },
    });
    expect(suppressed.status).toBe(201);
    const { binding, trips, batches } = countingD1(env.DB_2);
    const input = SendEmailBodySchema.parse({
      from: "hello@one-trip-gone.test",
      to: ["ada@example.com", "gone@example.com"],
      subject: "Receipt",
      text: "Thanks!",
      tags: [{ name: "kind", value: "receipt" }],
    });
    const refused = await sendEmail(contextFor(ws.accountId, binding), input, undefined).catch((e) => e);
    expect(refused).toMatchObject({ status: 422 });
    expect(trips).toEqual(["batch", "batch"]);
    expect(
      batches[1]?.some((q) => /INSERT INTO email_daily \(account_id, dim, day, suppressed\)/.test(q)),
    ).toBe(true);
    const written = await env.DB_2.prepare(
      `SELECT (SELECT count(*) FROM emails WHERE account_id = ?1) AS emails,
        (SELECT group_concat(dim || '=' || suppressed) FROM email_daily WHERE account_id = ?1) AS counted`,
    )
      .bind(ws.accountId)
      .first();
    expect(written).toEqual({
      emails: 0,
      counted: expect.stringMatching(/^(=1,t:kind=receipt=1|t:kind=receipt=1,=1)$/),
    });
  });
});

describe("accepting emails built from templates", () => {
  it("reads every template in one round trip, with the idempotency key's, whatever the number of emails", async () => {
    const ws = await sendingWorkspace("one-trip-tpl.test");
    const created = await call("POST", "/v1/templates", {
      token: ws.token,
      body: {
        name: "Receipt",
        alias: "receipt",
        from: "hello@one-trip-tpl.test",
        subject: "Order {{ORDER}}",
        html: "<p>{{ORDER}}</p>",
        variables: [{ key: "ORDER", type: "number" }],
      },
    });
    const { id } = (await created.json()) as { id: string };
    await call("POST", `/v1/templates/${id}/publish`, { token: ws.token });
    const batch = BatchEmailBodySchema.parse(
      Array.from({ length: 50 }, (_, i) => ({
        to: `r${i}@example.com`,
        template: { id: i % 2 === 0 ? id : "receipt", variables: { ORDER: i } },
      })),
    );
    for (const key of [undefined, "tpl-batch-1"]) {
      const { binding, trips, bound } = countingD1(env.DB_2);
      const answer = await sendBatch(contextFor(ws.accountId, binding), batch, key);
      expect((answer.body as { data: unknown[] }).data).toHaveLength(50);
      expect(trips).toEqual(["batch", "batch"]);
      expect(Math.max(...bound)).toBeLessThanOrEqual(100);
    }
  });

  it("reads each template's layout in that same round trip", async () => {
    const ws = await sendingWorkspace("one-trip-layout.test");
    const post = async (path: string, body?: unknown) =>
      (
        (await (await call("POST", path, { token: ws.token, ...(body ? { body } : {}) })).json()) as {
          id: string;
        }
      ).id;
    const frame = await post("/v1/templates", {
      name: "Frame",
      type: "layout",
      html: "<main>{{{@content}}}</main>",
    });
    await post(`/v1/templates/${frame}/publish`);
    const ids: string[] = [];
    for (const name of ["A", "B"]) {
      const id = await post("/v1/templates", {
        name,
        from: "hello@one-trip-layout.test",
        subject: name,
        html: `<p>${name}</p>`,
        layout_id: frame,
      });
      await post(`/v1/templates/${id}/publish`);
      ids.push(id);
    }
    const batch = BatchEmailBodySchema.parse(
      Array.from({ length: 20 }, (_, i) => ({ to: `r${i}@example.com`, template: { id: ids[i % 2] } })),
    );
    for (const key of [undefined, "tpl-layout-batch-1"]) {
      const { binding, trips } = countingD1(env.DB_2);
      const answer = await sendBatch(contextFor(ws.accountId, binding), batch, key);
      expect((answer.body as { data: unknown[] }).data).toHaveLength(20);
      expect(trips).toEqual(["batch", "batch"]);
    }
    const html = await env.DB_2.prepare("SELECT DISTINCT html FROM emails WHERE account_id = ? ORDER BY html")
      .bind(ws.accountId)
      .all<{ html: string }>();
    expect(html.results.map((r) => r.html)).toEqual(["<main><p>A</p></main>", "<main><p>B</p></main>"]);
  });
});

describe("accepting under concurrency", () => {
  it("admits exactly the quota's room: every other request 429, counters exact", async () => {
    const ws = await sendingWorkspace("one-trip-race.test", {
      plan: "free",
      overrides: { emails_per_hour: 3 },
    });
    const body = { from: "hello@one-trip-race.test", to: "ada@example.com", subject: "Hi", text: "Hi" };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call("POST", "/v1/emails", { token: ws.token, body })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const counts = await env.DB_2.prepare(
      "SELECT (SELECT count(*) FROM emails WHERE account_id = ?1) AS emails, (SELECT emails_hour FROM account_usage WHERE account_id = ?1) AS hour",
    )
      .bind(ws.accountId)
      .first();
    expect(counts).toEqual({ emails: 3, hour: 3 });
  });
});

describe("limitSql", () => {
  it("answers what limitsFor(plan, parseQuotaOverrides(json)) answers", async () => {
    const cases: Array<[PlanName, string]> = [
      ["free", "{}"],
      ["starter", '{"emails_per_hour": 7, "emails_per_day": null, "storage_bytes": -1}'],
      ["pro", '{"emails_per_month": "12", "recipients_per_email": 2.5, "team_members": true}'],
      ["enterprise", '{"emails_per_hour": 0}'],
      ["free", "not json"],
      ["starter", "[1, 2]"],
    ];
    for (const [plan, overrides] of cases) {
      const ws = await seedWorkspace({ plan });
      await env.DB_2.prepare("UPDATE accounts SET quota_overrides = ? WHERE id = ?")
        .bind(overrides, ws.accountId)
        .run();
      const { sql } = await import("drizzle-orm");
      const columns = QUOTA_NAMES.map((quota) => sql`${limitSql(quota, "acct")} AS ${sql.identifier(quota)}`);
      const [row] = await db().all<Record<string, number | null>>(
        sql`SELECT ${sql.join(columns, sql`, `)} FROM accounts AS acct WHERE acct.id = ${ws.accountId}`,
      );
      expect({ plan, overrides, limits: row }).toEqual({
        plan,
        overrides,
        limits: limitsFor(plan, parseQuotaOverrides(overrides)),
      });
    }
  });
});
