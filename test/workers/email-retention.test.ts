import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { gunzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { homedIn } from "../../src/db/directory/workspaces";
import { archiveDueEmails } from "../../src/features/email-archives/archive-emails";
import { DEAD_CLAIM_MS, expireArchives } from "../../src/features/email-archives/archive-upkeep";
import { messageKey } from "../../src/features/emails/message-key";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { archivePartKey, DAY_MS, dayLabel } from "../../src/lib/email-retention";
import { call, callJson, directory, eventually, seedShard, shardD1Of, ticketWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

type Email = { id: string; status: string };
const d1 = () => shardD1Of();

async function runCron(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: CRON.everyMinute, scheduledTime }), env, ctx);
}

/** A D1 whose batches that delete emails fail, as if the Worker died after writing the archive. */
function dyingBeforeDelete(real: D1Database): D1Database {
  return new Proxy(real, {
    get(target, name) {
      if (name === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const text = JSON.stringify(
            statements.map((s) => (s as unknown as { statement?: string }).statement),
          );
          if (text.includes("DELETE FROM emails")) throw new Error("the Worker died here");
          return target.batch(statements);
        };
      }
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const count = async (query: string, ...values: unknown[]) =>
  (
    await d1()
      .prepare(query)
      .bind(...values)
      .first<{ n: number }>()
  )?.n ?? 0;

/** Every line of a workspace's archive of `day`, downloaded whole (its parts' gzip members in one file). */
async function archivedLines(token: string, day: number) {
  const res = await call("GET", `/v1/emails/archives/${dayLabel(day)}`, { token });
  if (res.status === 404) return [];
  expect(res.status).toBe(200);
  const text = gunzipSync(new Uint8Array(await res.arrayBuffer())).toString("utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function sendAll(ws: { token: string }, domain: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { body } = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${domain}`,
        to: [`b${i}@example.com`],
        subject: `Hello ${i}`,
        text: "x",
        tags: [{ name: "batch", value: "one" }],
      },
    });
    ids.push(body.id);
  }
  await eventually(async () => {
    for (const id of ids) {
      const { body } = await callJson<Email>("GET", `/v1/emails/${id}`, { token: ws.token });
      if (!["sent", "delivered"].includes(body.status)) return false;
    }
    return true;
  });
  return ids;
}

describe("email retention and the day-by-day archive", () => {
  it("archives and deletes finished emails past retention, once each, and keeps what must stay", async () => {
    const { ws, ticket, domain } = await ticketWorkspace("keep", { plan: "free" });
    const today = Math.floor(Date.now() / DAY_MS);
    const sent = await sendAll(ws, domain, 6);
    // A ticket reply: its message must still say it was sent once its email is gone.
    const reply = await callJson<{ id: string; status: string }>(
      "POST",
      `/v1/tickets/${ticket.id}/messages`,
      {
        token: ws.token,
        body: { type: "reply", body_text: "On its way" },
      },
    );
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/messages/${reply.body.id}`, {
          token: ws.token,
        }).then((r) => r.body.status)) === "sent",
    );
    // Every other state: failed, bounced and cancelled go; scheduled, queued and sending stay.
    const [failed, bounced] = sent.slice(0, 2) as [string, string];
    await d1().prepare("UPDATE emails SET status = 'failed' WHERE id = ?").bind(failed).run();
    await d1().prepare("UPDATE emails SET status = 'bounced' WHERE id = ?").bind(bounced).run();
    const later = new Date(Date.now() + 29 * DAY_MS).toISOString();
    const schedule = async () =>
      (
        await callJson<Email>("POST", "/v1/emails", {
          token: ws.token,
          body: {
            from: `a@${domain}`,
            to: "c@example.com",
            subject: "Later",
            text: "x",
            scheduled_at: later,
          },
        })
      ).body.id;
    const [scheduled, queued, sending, cancelled] = [
      await schedule(),
      await schedule(),
      await schedule(),
      await schedule(),
    ];
    expect((await call("POST", `/v1/emails/${cancelled}/cancel`, { token: ws.token })).status).toBe(200);
    const cronAt = (today + 31) * DAY_MS + 3_600_000;
    // Scheduled beyond the cron's time (the API takes at most 30 days ahead).
    await d1()
      .prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
      .bind(cronAt + 30 * DAY_MS, scheduled)
      .run();
    // Held by the send pipeline: not due for its sweeps at the cron's time either.
    await d1()
      .prepare("UPDATE emails SET status = 'queued', updated_at = ? WHERE id = ?")
      .bind(cronAt, queued)
      .run();
    await d1()
      .prepare("UPDATE emails SET status = 'sending', lease_until = ? WHERE id = ?")
      .bind(cronAt + DAY_MS, sending)
      .run();
    const { results: mine } = await d1()
      .prepare("SELECT id FROM emails WHERE account_id = ? ORDER BY seq")
      .bind(ws.accountId)
      .all<{ id: string }>();
    const gone = mine.map((r) => r.id).filter((id) => ![scheduled, queued, sending].includes(id));
    expect(gone).toHaveLength(8); // six sent, the reply, the cancelled one

    const reportPath = `/v1/reports/email?from=${new Date(today * DAY_MS).toISOString().slice(0, 10)}&to=${new Date((today + 1) * DAY_MS).toISOString().slice(0, 10)}`;
    const reportBefore = (await callJson("GET", reportPath, { token: ws.token })).body;
    const storageBefore = await count(
      "SELECT storage_bytes AS n FROM account_usage WHERE account_id = ?",
      ws.accountId,
    );
    const storedBytes = await count(
      "SELECT sum(stored_bytes) AS n FROM emails WHERE id IN (SELECT value FROM json_each(?))",
      JSON.stringify(gone),
    );
    for (const id of gone.slice(0, 6)) expect(await env.FILES.head(messageKey(id))).not.toBeNull();

    // Within retention (30 days on the free plan, whole days): nothing moves.
    await runCron((today + 30) * DAY_MS + 3_600_000);
    expect(await count("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId)).toBe(11);

    // The Worker dies after writing the archive, before deleting: nothing is archived.
    const dying = createDb(dyingBeforeDelete(d1()));
    const homedHere = (ids: string[]) => homedIn(directory(), seedShard(), ids, cronAt);
    expect(await archiveDueEmails(dying, env.FILES, cronAt, homedHere)).toEqual({ parts: 0, emails: 0 });
    expect(await count("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId)).toBe(11);
    expect(await count("SELECT count(*) AS n FROM email_archives WHERE account_id = ?", ws.accountId)).toBe(
      0,
    );
    const dead = await d1()
      .prepare("SELECT day, part, token FROM email_archive_parts WHERE account_id = ? AND state = 'writing'")
      .bind(ws.accountId)
      .first<{ day: number; part: number; token: string }>();
    expect(dead).not.toBeNull();
    const deadKey = archivePartKey(ws.accountId, dead?.day ?? 0, dead?.part ?? 0, dead?.token ?? "");
    expect(await env.FILES.head(deadKey)).not.toBeNull();

    // The cron past retention: the finished emails are archived once and deleted.
    await runCron(cronAt);
    const { results: left } = await d1()
      .prepare("SELECT id, status FROM emails WHERE account_id = ? ORDER BY id")
      .bind(ws.accountId)
      .all<Email>();
    expect(left.map((e) => e.id).sort()).toEqual([scheduled, queued, sending].sort());
    for (const table of ["email_recipients", "email_tags"]) {
      expect(
        await count(
          `SELECT count(*) AS n FROM ${table} WHERE email_seq NOT IN (SELECT seq FROM emails) AND account_seq = (SELECT seq FROM accounts WHERE id = ?)`,
          ws.accountId,
        ),
      ).toBe(0);
    }
    expect(
      await count("SELECT count(*) AS n FROM email_events WHERE email_seq NOT IN (SELECT seq FROM emails)"),
    ).toBe(0);
    for (const id of gone) expect(await env.FILES.head(messageKey(id))).toBeNull();
    for (const id of gone) {
      const res = await call("GET", `/v1/emails/${id}`, { token: ws.token });
      expect(res.status).toBe(404);
    }

    const lines = await archivedLines(ws.token, today);
    expect(lines.map((l) => l.id).sort()).toEqual([...gone].sort());
    const first = lines.find((l) => l.id === sent[2]) as Record<string, unknown>;
    expect(first).toMatchObject({
      object: "email",
      subject: "Hello 2",
      tags: [{ name: "batch", value: "one" }],
      recipients: [{ address: "b2@example.com", attempts: 1 }],
    });
    expect(first).not.toHaveProperty("html");
    expect(first).not.toHaveProperty("text");
    expect((first.events as Array<{ type: string }>).map((e) => e.type)).toContain("sent");
    const day = await d1()
      .prepare("SELECT parts, emails, bytes FROM email_archives WHERE account_id = ? AND day = ?")
      .bind(ws.accountId, today)
      .first<{ parts: number; emails: number; bytes: number }>();
    expect(day).toMatchObject({ parts: 1, emails: 8 });
    const listed = await callJson<{ data: Array<Record<string, unknown>> }>("GET", "/v1/emails/archives", {
      token: ws.token,
    });
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        object: "email_archive",
        date: dayLabel(today),
        emails: 8,
        size: day?.bytes,
        parts: 1,
      }),
    ]);

    // Storage: the emails' bytes out, the archive's in.
    expect(
      await count("SELECT storage_bytes AS n FROM account_usage WHERE account_id = ?", ws.accountId),
    ).toBe(storageBefore - storedBytes + (day?.bytes ?? 0));
    // The report reads rollups: the same figures after as before.
    expect((await callJson("GET", reportPath, { token: ws.token })).body).toEqual(reportBefore);
    // The reply still shows it was sent.
    const shown = await callJson<{ status: string }>("GET", `/v1/messages/${reply.body.id}`, {
      token: ws.token,
    });
    expect(shown.body.status).toBe("sent");

    // A repeated run changes nothing; a run past the dead claim's time removes it and its object.
    await runCron(cronAt);
    await runCron(cronAt + DEAD_CLAIM_MS + 60_000);
    expect(await env.FILES.head(deadKey)).toBeNull();
    expect(
      await count("SELECT count(*) AS n FROM email_archive_parts WHERE account_id = ?", ws.accountId),
    ).toBe(1);
    expect((await archivedLines(ws.token, today)).map((l) => l.id).sort()).toEqual([...gone].sort());
    expect(await count("SELECT count(*) AS n FROM emails WHERE account_id = ?", ws.accountId)).toBe(3);

    // A held email that finishes later is archived in a second part of its day, once.
    await d1().prepare("UPDATE emails SET status = 'sent' WHERE id = ?").bind(queued).run();
    await runCron(cronAt + DAY_MS);
    const again = await archivedLines(ws.token, today);
    expect(again.map((l) => l.id).sort()).toEqual([...gone, queued].sort());
    expect(
      await d1()
        .prepare("SELECT parts, emails FROM email_archives WHERE account_id = ? AND day = ?")
        .bind(ws.accountId, today)
        .first(),
    ).toEqual({ parts: 2, emails: 9 });
  });

  it("keeps each workspace's own retention, and a shorter one archives sooner", async () => {
    const short = await ticketWorkspace("short", { plan: "pro" });
    const long = await ticketWorkspace("long", { plan: "pro" });
    await d1()
      .prepare("UPDATE accounts SET email_retention_days = 1 WHERE id = ?")
      .bind(short.ws.accountId)
      .run();
    const [shortEmail] = await sendAll(short.ws, short.domain, 1);
    const [longEmail] = await sendAll(long.ws, long.domain, 1);
    const today = Math.floor(Date.now() / DAY_MS);

    await runCron((today + 2) * DAY_MS + 60_000);
    expect(await count("SELECT count(*) AS n FROM emails WHERE id = ?", shortEmail)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM emails WHERE id = ?", longEmail)).toBe(1);
    expect((await archivedLines(short.ws.token, today)).map((l) => l.id)).toEqual([shortEmail]);
  });

  it("leaves alone the rows of a workspace that lives in another shard (a move's leftovers)", async () => {
    const { ws, domain } = await ticketWorkspace("moved", { plan: "free" });
    const [email] = await sendAll(ws, domain, 1);
    const at = (Math.floor(Date.now() / DAY_MS) + 31) * DAY_MS + 60_000;
    const homedHere = (ids: string[]) => homedIn(directory(), seedShard(), ids, at);
    await env.DIRECTORY.prepare("UPDATE workspaces SET shard = 'DB' WHERE account_id = ?")
      .bind(ws.accountId)
      .run();
    try {
      await archiveDueEmails(createDb(d1()), env.FILES, at, homedHere);
      expect(await count("SELECT count(*) AS n FROM emails WHERE id = ?", email)).toBe(1);
      expect(await env.FILES.head(messageKey(email as string))).not.toBeNull();
    } finally {
      await env.DIRECTORY.prepare("UPDATE workspaces SET shard = ? WHERE account_id = ?")
        .bind(seedShard(), ws.accountId)
        .run();
    }
    // Past the isolate's 10 s memory of the workspace's home.
    const later = at + 60_000;
    await archiveDueEmails(createDb(d1()), env.FILES, later, (ids) =>
      homedIn(directory(), seedShard(), ids, later),
    );
    expect(await count("SELECT count(*) AS n FROM emails WHERE id = ?", email)).toBe(0);
  });

  it("expires archives after two years, giving their bytes back", async () => {
    const { ws, domain } = await ticketWorkspace("old", { plan: "free" });
    await sendAll(ws, domain, 1);
    const today = Math.floor(Date.now() / DAY_MS);
    await runCron((today + 31) * DAY_MS + 60_000);
    const part = await d1()
      .prepare("SELECT part, token, bytes FROM email_archive_parts WHERE account_id = ?")
      .bind(ws.accountId)
      .first<{ part: number; token: string; bytes: number }>();
    expect(part).not.toBeNull();
    const storage = await count(
      "SELECT storage_bytes AS n FROM account_usage WHERE account_id = ?",
      ws.accountId,
    );

    // Straight to the upkeep: a cron two years ahead would run every sweep of the shared test database.
    await expireArchives(createDb(d1()), env.FILES, (today + 731) * DAY_MS + 60_000);
    expect(
      await count("SELECT count(*) AS n FROM email_archive_parts WHERE account_id = ?", ws.accountId),
    ).toBe(0);
    expect(await count("SELECT count(*) AS n FROM email_archives WHERE account_id = ?", ws.accountId)).toBe(
      0,
    );
    expect(
      await env.FILES.head(archivePartKey(ws.accountId, today, part?.part ?? 0, part?.token ?? "")),
    ).toBeNull();
    expect(
      await count("SELECT storage_bytes AS n FROM account_usage WHERE account_id = ?", ws.accountId),
    ).toBe(Math.max(storage - (part?.bytes ?? 0), 0));
  });
});

describe("the retention run's queries", () => {
  it("are served by indexes", async () => {
    const { claimStatements, dueWorkspacesQuery } = await import(
      "../../src/features/email-archives/archive-parts.repo"
    );
    const due = await planOf(dueWorkspacesQuery(Date.now()));
    expectIndexed(
      due.filter((line) => !line.startsWith("SCAN a")),
      "emails",
    );
    const ws = { accountId: "acc_x", accountSeq: 1, keptFrom: Date.now() };
    const [claim, read] = claimStatements(createDb(d1()), ws, 1000, Date.now(), "t");
    for (const query of [claim, read]) {
      const plan = await planOf(query as Parameters<typeof planOf>[0]);
      for (const table of ["emails", "email_archive_parts"])
        for (const line of plan.filter((l) => l.includes(` ${table} `)))
          expect(line, plan.join("\n")).toMatch(/USING (COVERING )?INDEX|PRIMARY KEY/);
    }
    for (const query of [
      sql`SELECT account_id FROM email_archive_parts WHERE state = 'writing' AND created_at < ${Date.now()} LIMIT 500`,
      sql`SELECT account_id FROM email_archive_parts WHERE day < ${20000} AND state = 'archived' LIMIT 500`,
    ])
      expectIndexed(await planOf(query), "email_archive_parts");
  });
});

describe("email webhook deliveries of a short email history", () => {
  it("go with the workspace's email retention when it is shorter than the outbox's 30 days", async () => {
    const { pruneEmailWebhooksPastRetention } = await import("../../src/jobs/prune-email-webhooks");
    const short = await ticketWorkspace("hooks-short", { plan: "pro" });
    const long = await ticketWorkspace("hooks-long", { plan: "pro" });
    await d1()
      .prepare("UPDATE accounts SET email_retention_days = 2 WHERE id = ?")
      .bind(short.ws.accountId)
      .run();
    const today = Math.floor(Date.now() / DAY_MS);
    for (const ws of [short.ws, long.ws]) {
      const hook = await callJson<{ id: string }>("POST", "/v1/webhooks", {
        token: ws.token,
        body: { url: "https://hooks.example.com/in", events: ["email.sent"] },
      });
      for (const [state, next] of [
        ["succeeded", null],
        ["pending", (today + 10) * DAY_MS],
      ] as const)
        await d1()
          .prepare(
            "INSERT INTO email_webhook_outbox (account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 'email.sent', '{}', ?, 1, ?, ?)",
          )
          .bind(ws.accountId, hook.body.id, crypto.randomUUID(), state, next, Date.now())
          .run();
    }
    const left = (accountId: string) =>
      count("SELECT count(*) AS n FROM email_webhook_outbox WHERE account_id = ?", accountId);
    await pruneEmailWebhooksPastRetention(createDb(d1()), (today + 2) * DAY_MS + 60_000);
    expect([await left(short.ws.accountId), await left(long.ws.accountId)]).toEqual([2, 2]);
    await pruneEmailWebhooksPastRetention(createDb(d1()), (today + 3) * DAY_MS + 60_000);
    // The finished row goes; the one still being delivered stays; the longer history keeps both.
    expect([await left(short.ws.accountId), await left(long.ws.accountId)]).toEqual([1, 2]);
  });

  it("is found per workspace through an index", async () => {
    const plan = await planOf(
      sql`SELECT o.id FROM accounts a CROSS JOIN email_webhook_outbox o ON o.account_id = a.id
        AND o.next_attempt_at IS NULL AND o.created_at < ${Date.now()} LIMIT 100`,
    );
    expect(plan.join("\n")).toContain("email_webhook_outbox_account_finished");
  });
});
