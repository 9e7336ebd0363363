import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import migration from "../../migrations/0054_sla_outcomes.sql?raw";
import { compose } from "../../src/features/messages/compose.service";
import { sweepSla } from "../../src/features/sla/sla-sweep";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { callJson, db, seedUser, shardEnv } from "./helpers";
import { MIN, slaDesk, T0 } from "./sla-helpers";

const sweep = (now: number) => sweepSla(db(), shardEnv(), now);
const SLA_COLUMNS = [
  "sla_first_response_achieved",
  "sla_first_response_breached",
  "sla_next_response_achieved",
  "sla_next_response_breached",
  "sla_resolution_achieved",
  "sla_resolution_breached",
].join(", ");

interface Outcomes {
  achieved: number;
  breached: number;
  achievement: number | null;
}
type Sla = Record<"first_response" | "next_response" | "resolution", Outcomes>;

/** T0 is Monday 30 November 2026: the report of that day and the next. */
async function slaReport(token: string, query = "") {
  const res = await callJson<{ totals: { sla: Sla }; data: Array<{ start: string; sla: Sla }> }>(
    "GET",
    `/v1/reports/support?from=2026-11-30&to=2026-12-02${query}`,
    { token },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const outcome = (achieved: number, breached: number): Outcomes => ({
  achieved,
  breached,
  achievement: achieved + breached === 0 ? null : Math.round((achieved / (achieved + breached)) * 1e4) / 1e4,
});

/** The trigger's rows of one workspace, and the migration's backfill run over a copy of its tickets. */
async function countedAndBackfilled(accountId: string) {
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const backfill = migration.split("--> statement-breakpoint").find((s) => s.includes("-- Backfill"));
  const table = await env.DB_2.prepare("SELECT sql FROM sqlite_master WHERE name = 'support_daily'").first<{
    sql: string;
  }>();
  await env.DB_2.batch([
    env.DB_2.prepare(`CREATE TABLE tickets_${suffix} AS SELECT * FROM tickets WHERE account_id = ?`).bind(
      accountId,
    ),
    env.DB_2.prepare(String(table?.sql).replace(/support_daily/, `support_daily_${suffix}`)),
  ]);
  await env.DB_2.prepare(
    String(backfill)
      .replace("FROM tickets t", `FROM tickets_${suffix} t`)
      .replace("INSERT INTO support_daily (", `INSERT INTO support_daily_${suffix} (`),
  ).run();
  const rows = (name: string) =>
    env.DB_2.prepare(
      `SELECT dimension, dimension_value, day, ${SLA_COLUMNS} FROM ${name} WHERE account_id = ? AND (${SLA_COLUMNS.replaceAll(", ", " + ")}) > 0 ORDER BY dimension, dimension_value, day`,
    )
      .bind(accountId)
      .all();
  const [counted, rebuilt] = [
    (await rows("support_daily")).results,
    (await rows(`support_daily_${suffix}`)).results,
  ];
  await env.DB_2.batch(
    [`tickets_${suffix}`, `support_daily_${suffix}`].map((t) => env.DB_2.prepare(`DROP TABLE ${t}`)),
  );
  return { counted, rebuilt };
}

/** A ticket an agent opens with its reply (POST /v1/tickets/compose) at `now`. */
async function outboundTicket(desk: Awaited<ReturnType<typeof slaDesk>>, now: number) {
  const opened = (await compose(desk.at(now), {
    inbox_id: desk.inbox.id,
    to: "new@example.com",
    subject: "From us",
    body_text: "Hello from us",
  } as never)) as { id: string };
  return desk.show(now, opened.id) as Promise<{ sla?: { first_response?: { met_at: string | null } } }>;
}

describe("SLA achievement in the support report", { timeout: 120_000 }, () => {
  it("counts each target once when it is decided: achieved, met late, breached by the sweep, restarted", async () => {
    const desk = await slaDesk();
    const agent = await seedUser(desk.ws.accountId);
    // Normal priority: first response 60 min, next response 120, resolution 480.
    const kept = await desk.open(T0);
    await desk.patch(T0, kept.id, { assignee_id: agent.id });
    await desk.say(T0 + 5 * MIN, kept.id, "reply", { status_after_send: "open" }); // first response achieved
    await desk.say(T0 + 10 * MIN, kept.id, "customer"); // next response starts
    await desk.say(T0 + 200 * MIN, kept.id, "reply", { status_after_send: "open" }); // met late: breached
    await desk.patch(T0 + 210 * MIN, kept.id, { status: "resolved" }); // resolution achieved

    const late = await desk.open(T0);
    await Promise.all([sweep(T0 + 61 * MIN), sweep(T0 + 61 * MIN), sweep(T0 + 62 * MIN)]); // breached once
    await desk.say(T0 + 70 * MIN, late.id, "reply", { status_after_send: "open" }); // no second count
    // The next day, a customer message restarts next response, answered in time: a clock of its own.
    await desk.say(T0 + 24 * 60 * MIN, late.id, "customer");
    await desk.say(T0 + 24 * 60 * MIN + 30 * MIN, late.id, "reply", { status_after_send: "open" });

    // Opened by an agent with its reply: met as it was created, nobody waited, not counted.
    const outbound = await outboundTicket(desk, T0);
    expect(outbound.sla?.first_response?.met_at ?? null).not.toBeNull();

    const report = await slaReport(desk.ws.token);
    expect(report.totals.sla).toEqual({
      first_response: outcome(1, 1),
      next_response: outcome(1, 1),
      resolution: outcome(1, 0),
    });
    expect(report.data.map((d) => d.sla.next_response)).toEqual([outcome(0, 1), outcome(1, 0)]);
    expect((await slaReport(desk.ws.token, `&inbox_id=${desk.inbox.id}`)).totals.sla).toEqual(
      report.totals.sla,
    );
    // The assignee when the outcome was decided: the kept ticket's three outcomes.
    expect((await slaReport(desk.ws.token, `&assignee_id=${agent.id}`)).totals.sla).toEqual({
      first_response: outcome(1, 0),
      next_response: outcome(0, 1),
      resolution: outcome(1, 0),
    });
    // Another workspace sees none of it.
    const other = await slaDesk();
    expect((await slaReport(other.ws.token)).totals.sla).toEqual({
      first_response: outcome(0, 0),
      next_response: outcome(0, 0),
      resolution: outcome(0, 0),
    });
  });

  it("concurrent replies meeting the same target count it once", async () => {
    const desk = await slaDesk();
    const ticket = await desk.open(T0);
    await Promise.all(
      [1, 2, 3].map((i) => desk.say(T0 + i * MIN, ticket.id, "reply", { status_after_send: "open" })),
    );
    expect((await slaReport(desk.ws.token)).totals.sla.first_response).toEqual(outcome(1, 0));
  });

  it("migration 0054's backfill rebuilds from the tickets what the trigger counted", async () => {
    const desk = await slaDesk();
    const a = await desk.open(T0);
    await desk.say(T0 + 5 * MIN, a.id, "reply", { status_after_send: "open" });
    await desk.say(T0 + 10 * MIN, a.id, "customer");
    await desk.patch(T0 + 300 * MIN, a.id, { status: "resolved" });
    const b = await desk.open(T0);
    await sweep(T0 + 61 * MIN);
    await desk.say(T0 + 90 * MIN, b.id, "reply", { status_after_send: "open" });
    await outboundTicket(desk, T0);
    const { counted, rebuilt } = await countedAndBackfilled(desk.ws.accountId);
    expect(counted.length).toBeGreaterThan(0);
    expect(rebuilt).toEqual(counted);
  });

  it("the dashboard's overview shows achievement per target, and nothing without an SLA", async () => {
    const desk = await slaDesk();
    const owner = await signIn(desk.ws.accountId, "owner");
    const overview = async () => (await dashboardGet("/dashboard", owner)).text();
    expect(await overview()).not.toContain("SLA achievement");
    const now = Date.now();
    const late = await desk.open(now - 90 * MIN);
    await desk.say(now, late.id, "reply", { status_after_send: "open" });
    const kept = await desk.open(now - 10 * MIN);
    await desk.say(now, kept.id, "reply", { status_after_send: "open" });
    const table = (await overview()).match(/<table id="sla-achievement">[\s\S]*?<\/table>/)?.[0] ?? "";
    expect(table).toContain("<caption>SLA achievement</caption>");
    expect(table).toMatch(/<td>First response<\/td><td>1<\/td><td>1<\/td><td>50%<\/td>/);
    expect(table).toMatch(/<td>Resolution<\/td><td>0<\/td><td>0<\/td><td>—<\/td>/);
  });
});
