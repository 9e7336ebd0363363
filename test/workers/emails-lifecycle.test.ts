import { createExecutionContext, createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmail } from "../../src/features/emails/deliver";
import worker from "../../src/index";
import { CRON } from "../../src/jobs/schedules";
import { call, callJson, eventually, sendingWorkspace, shardEnv } from "./helpers";

type Email = Record<string, unknown> & { id: string; status: string; scheduled_at: string | null };
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();
const basic = (domain: string, extra: Record<string, unknown> = {}) => ({
  from: `a@${domain}`,
  to: "b@example.com",
  subject: "x",
  text: "x",
  ...extra,
});

/** Makes a scheduled email due now without waiting for its time. */
const makeDue = (id: string) =>
  env.DB_2.prepare("UPDATE emails SET scheduled_at = ? WHERE id = ?")
    .bind(Date.now() - 1000, id)
    .run();

describe("scheduling", () => {
  it("schedules, lists, reschedules and cancels", async () => {
    const ws = await sendingWorkspace("sched.test");
    const at = inOneHour();
    const created = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: basic("sched.test", { scheduled_at: at }),
    });
    expect(created.body).toMatchObject({ status: "scheduled", scheduled_at: at });

    const list = await callJson<{ data: Email[]; total: number; limit: number; offset: number }>(
      "GET",
      "/v1/emails/scheduled",
      { token: ws.token },
    );
    expect(list.body).toMatchObject({ total: 1, limit: 50, offset: 0 });
    expect(list.body.data.map((e) => e.id)).toEqual([created.body.id]);

    const later = new Date(Date.now() + 7_200_000).toISOString();
    const moved = await callJson<Email>("PATCH", `/v1/emails/${created.body.id}`, {
      token: ws.token,
      body: { scheduled_at: later },
    });
    expect(moved.body).toMatchObject({ status: "scheduled", scheduled_at: later });

    const cancelled = await callJson<Email>("POST", `/v1/emails/${created.body.id}/cancel`, {
      token: ws.token,
    });
    expect(cancelled.body).toMatchObject({ status: "cancelled", last_event: "cancelled" });
    expect((await call("POST", `/v1/emails/${created.body.id}/cancel`, { token: ws.token })).status).toBe(
      409,
    );
    expect(
      (
        await call("PATCH", `/v1/emails/${created.body.id}`, {
          token: ws.token,
          body: { scheduled_at: later },
        })
      ).status,
    ).toBe(409);
    expect((await deliverEmail(shardEnv(), created.body.id)).kind).toBe("skipped");
  });

  it("sends a due email exactly once when the sweep, the queue and a redelivery all fire", async () => {
    const ws = await sendingWorkspace("once.test");
    const { body } = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: basic("once.test", { scheduled_at: inOneHour() }),
    });
    await makeDue(body.id);

    await Promise.all([
      worker.scheduled(
        createScheduledController({ cron: CRON.everyMinute, scheduledTime: Date.now() }),
        env,
        createExecutionContext(),
      ),
      deliverEmail(shardEnv(), body.id),
      deliverEmail(shardEnv(), body.id),
    ]);
    await eventually(
      async () =>
        (await callJson<Email>("GET", `/v1/emails/${body.id}`, { token: ws.token })).body.status === "sent",
    );
    // Give the sweep's queue message time to arrive and find nothing to do.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const sent = await env.DB_2.prepare(
      "SELECT count(*) AS n FROM email_events WHERE email_seq = (SELECT seq FROM emails WHERE id = ?) AND type = 'sent'",
    )
      .bind(body.id)
      .first<{ n: number }>();
    expect(sent?.n).toBe(1);
    const attempts = await env.DB_2.prepare("SELECT attempts FROM emails WHERE id = ?")
      .bind(body.id)
      .first<{ attempts: number }>();
    expect(attempts?.attempts).toBe(1);
    // The email report counts the one send, whoever fired.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await callJson<{ totals: Record<string, number | null> }>(
      "GET",
      `/v1/reports/email?from=${day(0)}&to=${day(1)}`,
      { token: ws.token },
    );
    expect(report.body.totals).toMatchObject({ accepted: 1, sent: 1, delivered: 1, failed: 0 });
  });

  it("lets the minute sweep send a scheduled email the queue never carried", async () => {
    const ws = await sendingWorkspace("sweep.test");
    // 20 days ahead: beyond the queue's 12-hour delay, so only the sweep can send it.
    const far = new Date(Date.now() + 20 * 86_400_000).toISOString();
    const { body } = await callJson<Email>("POST", "/v1/emails", {
      token: ws.token,
      body: basic("sweep.test", { scheduled_at: far }),
    });
    await makeDue(body.id);
    await worker.scheduled(
      createScheduledController({ cron: CRON.everyMinute, scheduledTime: Date.now() }),
      env,
      createExecutionContext(),
    );
    const sent = await eventually(async () => {
      const email = (await callJson<Email>("GET", `/v1/emails/${body.id}`, { token: ws.token })).body;
      return email.status === "sent" ? email : null;
    });
    expect(sent.attempts).toBe(1);
  });
});

describe("batch", () => {
  it("accepts up to 100 emails all or nothing", async () => {
    const ws = await sendingWorkspace("batch.test");
    const ok = await callJson<{ data: Email[] }>("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [basic("batch.test"), basic("batch.test", { to: ["c@example.com"] })],
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(2);
    expect(ok.body.data.every((e) => e.status === "queued")).toBe(true);

    const withBadOne = await callJson("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [basic("batch.test"), basic("batch.test", { to: "nope" })],
    });
    expect(withBadOne.status).toBe(400);
    expect(withBadOne.body.details).toEqual([{ path: "body.1.to", message: expect.any(String) }]);
    const withAttachment = await call("POST", "/v1/emails/batch", {
      token: ws.token,
      body: [basic("batch.test", { attachments: [{ filename: "a.txt", content: "YQ==" }] })],
    });
    expect(withAttachment.status).toBe(400);
    expect(
      (
        await call("POST", "/v1/emails/batch", {
          token: ws.token,
          body: Array.from({ length: 101 }, () => basic("batch.test")),
        })
      ).status,
    ).toBe(400);
    const list = await callJson<{ pagination: { total: number } }>("GET", "/v1/emails", { token: ws.token });
    expect(list.body.pagination.total).toBe(2);
  });
});

describe("listing and isolation", () => {
  it("filters by status, recipient and tag, newest first", async () => {
    const ws = await sendingWorkspace("list.test");
    const send = async (extra: Record<string, unknown>) =>
      (await callJson<Email>("POST", "/v1/emails", { token: ws.token, body: basic("list.test", extra) })).body
        .id;
    const first = await send({ to: "ada@example.com", tags: [{ name: "kind", value: "receipt" }] });
    const second = await send({
      to: "bob@example.com",
      bcc: "ADA@example.com",
      tags: [{ name: "kind", value: "alert" }],
    });
    const third = await send({ to: "carl@example.com", scheduled_at: inOneHour() });

    const ids = async (query: string) =>
      (await callJson<{ data: Email[] }>("GET", `/v1/emails${query}`, { token: ws.token })).body.data.map(
        (e) => e.id,
      );
    expect(await ids("")).toEqual([third, second, first]);
    expect(await ids("?to=ada@example.com")).toEqual([second, first]);
    expect(await ids("?tag=kind:receipt")).toEqual([first]);
    expect(await ids("?tag=kind")).toEqual([second, first]);
    expect(await ids("?status=scheduled")).toEqual([third]);
    const page = await callJson<{ data: Email[]; pagination: Record<string, number> }>(
      "GET",
      "/v1/emails?limit=1&offset=1",
      { token: ws.token },
    );
    expect(page.body.pagination).toEqual({ limit: 1, offset: 1, total: 3 });
    expect(page.body.data[0]).not.toHaveProperty("html");
  });

  it("answers 404 for another workspace's email on every route", async () => {
    const a = await sendingWorkspace("iso-a.test");
    const b = await sendingWorkspace("iso-b.test");
    const { body } = await callJson<Email>("POST", "/v1/emails", {
      token: b.token,
      body: basic("iso-b.test", { scheduled_at: inOneHour() }),
    });
    for (const [method, path, payload] of [
      ["GET", `/v1/emails/${body.id}`, undefined],
      ["GET", `/v1/emails/${body.id}/content`, undefined],
      ["PATCH", `/v1/emails/${body.id}`, { scheduled_at: inOneHour() }],
      ["POST", `/v1/emails/${body.id}/cancel`, undefined],
    ] as const) {
      expect((await call(method, path, { token: a.token, body: payload })).status, `${method} ${path}`).toBe(
        404,
      );
    }
    expect((await callJson<{ data: Email[] }>("GET", "/v1/emails", { token: a.token })).body.data).toEqual(
      [],
    );
    expect(
      (await callJson<{ total: number }>("GET", "/v1/emails/scheduled", { token: a.token })).body.total,
    ).toBe(0);
    // Nor can a workspace send from another's verified domain.
    expect((await call("POST", "/v1/emails", { token: a.token, body: basic("iso-b.test") })).status).toBe(
      403,
    );
  });
});
