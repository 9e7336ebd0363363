import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import migration from "../../migrations/0026_support_report_rollups.sql?raw";
import inboxAssignee from "../../migrations/0027_support_inbox_assignee.sql?raw";
import { durationsQuery, supportDaysQuery } from "../../src/features/reports/support-report.repo";
import { newId } from "../../src/lib/ids";
import {
  call,
  callJson,
  db,
  seedInbox,
  seedUser,
  seedWorkspace,
  ticketWorkspace,
  type Workspace,
} from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { expectIndexed, planOf } from "./query-plan";
import { answer, createSurvey, seedRequest, tokenFor } from "./surveys-helpers";

const DAY = 86_400_000;

interface Figures {
  created: number;
  resolved: number;
  reopened: number;
  replies: number;
  first_responses: number;
  first_response_p50: number | null;
  first_response_p90: number | null;
  resolution_p50: number | null;
  resolution_p90: number | null;
  csat_average: number | null;
  csat_responses: number;
  nps: number | null;
  nps_responses: number;
  nps_promoters: number;
  nps_passives: number;
  nps_detractors: number;
}
interface Report {
  data: Array<Figures & { start: string; end: string }>;
  totals: Figures;
  from: string;
  to: string;
  interval: string;
}

async function report(ws: Workspace, query = "") {
  const res = await callJson<Report>("GET", `/v1/reports/support${query}`, { token: ws.token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const manage = (ws: Workspace, id: string, action: string) =>
  call("POST", `/v1/tickets/${id}/manage`, { token: ws.token, body: { action } });

const reply = (ws: Workspace, id: string) =>
  call("POST", `/v1/tickets/${id}/messages`, {
    token: ws.token,
    body: { type: "reply", body_text: "On it." },
  });

/** A ticket with a customer message `firstResponse` seconds before its reply, at `at`, written as rows. */
async function ticketRows(
  accountId: string,
  inboxId: string,
  at: number,
  options: { firstResponse?: number; resolution?: number; assigneeId?: string | null } = {},
) {
  const customerId = newId("cus");
  await env.DB_2.prepare(
    "INSERT INTO customers (id, account_id, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
  )
    .bind(customerId, accountId, `${customerId}@example.com`.toLowerCase(), at, at)
    .run();
  const id = newId("tkv");
  const number = Math.floor(Math.random() * 1e9);
  await env.DB_2.prepare(
    `INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, shared_uuid, assignee_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'Known', ?, ?, ?, ?)`,
  )
    .bind(
      id,
      accountId,
      inboxId,
      customerId,
      number,
      `T-${number}`,
      newId("shr"),
      options.assigneeId ?? null,
      at,
      at,
    )
    .run();
  const message = (type: string, when: number) =>
    env.DB_2.prepare(
      `INSERT INTO messages (id, account_id, ticket_id, type, direction, author_type, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        newId("msg"),
        accountId,
        id,
        type,
        type === "customer" ? "inbound" : "outbound",
        type === "customer" ? "customer" : "api",
        type === "customer" ? "received" : "sent",
        when,
        when,
      )
      .run();
  await message("customer", at);
  if (options.firstResponse !== undefined) await message("reply", at + options.firstResponse * 1000);
  if (options.resolution !== undefined) {
    const resolvedAt = at + options.resolution * 1000;
    await env.DB_2.prepare(
      "UPDATE tickets SET status = 'resolved', closed_at = ?, updated_at = ? WHERE id = ?",
    )
      .bind(resolvedAt, resolvedAt, id)
      .run();
  }
  return id;
}

/** The value a sketch of `values` may answer for quantile q: the exact one at its rank, within 1%. */
function expectWithinSketchError(got: number | null, values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const neighbours = [sorted[Math.floor(rank)] ?? Number.NaN, sorted[Math.ceil(rank)] ?? Number.NaN];
  expect(got).not.toBeNull();
  const close = neighbours.some((exact) => Math.abs((got ?? 0) - exact) <= exact * 0.01 + 1e-9);
  expect(close, `${got} vs ${neighbours.join(" or ")}`).toBe(true);
}

const ROLLUP_COLUMNS =
  "dimension, dimension_value, day, created, resolved, reopened, replies, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors, first_response_count, resolution_count";

/**
 * Migrations 0026 and 0027's backfills, run as written over copies of one workspace's rows: the shared
 * database already holds every workspace's rollups, so the statements are pointed at tables of
 * this run's own (their names are all that changes), with the trigger that counts durations.
 */
async function backfillOf(accountId: string) {
  const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
  const renamed = (sql: string) =>
    sql
      .replaceAll("support_durations_counted", `support_durations_counted_${suffix}`)
      .replace(
        /\b(tickets|messages|surveys|survey_responses|support_daily|support_durations)\b/g,
        `$1_${suffix}`,
      );
  const statements = migration.split("--> statement-breakpoint");
  const backfillAt = statements.findIndex((s) => s.includes("-- Backfill"));
  const setup = statements.filter(
    (s) =>
      s.includes("CREATE TABLE `support_daily`") ||
      s.includes("CREATE TABLE `support_durations`") ||
      s.includes("CREATE TRIGGER support_durations_counted"),
  );
  const sources = ["tickets", "messages", "survey_responses"].map((table) =>
    env.DB_2.prepare(`CREATE TABLE ${table}_${suffix} AS SELECT * FROM ${table} WHERE account_id = ?`).bind(
      accountId,
    ),
  );
  await env.DB_2.batch([
    ...sources,
    env.DB_2.prepare(`CREATE TABLE surveys_${suffix} AS SELECT * FROM surveys WHERE account_id = ?`).bind(
      accountId,
    ),
    ...setup.map((s) => env.DB_2.prepare(renamed(s))),
  ]);
  const more = inboxAssignee.split("--> statement-breakpoint");
  const backfill = [
    ...statements.slice(backfillAt),
    ...more.slice(more.findIndex((s) => s.includes("-- Backfill"))),
  ];
  for (const statement of backfill) await env.DB_2.prepare(renamed(statement)).run();
  const { results } = await env.DB_2.prepare(
    `SELECT ${ROLLUP_COLUMNS} FROM support_daily_${suffix} ORDER BY dimension, dimension_value, day`,
  ).all();
  await env.DB_2.batch(
    ["tickets", "messages", "surveys", "survey_responses", "support_daily", "support_durations"].map(
      (table) => env.DB_2.prepare(`DROP TABLE ${table}_${suffix}`),
    ),
  );
  return results;
}

describe("GET /v1/reports/support", { timeout: 120_000 }, () => {
  it("counts tickets created, replies, resolutions and reopenings exactly under concurrent and repeated requests", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("rsup");
    const apiTickets = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        callJson<{ id: string }>("POST", "/v1/tickets", {
          token: ws.token,
          body: {
            inbox_id: inbox.id,
            customer: { email: `c${i}@example.com` },
            subject: `Q${i}`,
            message: { body_text: "Help" },
          },
        }),
      ),
    );
    for (const res of apiTickets) expect(res.status).toBe(201);
    await Promise.all(
      [1, 2].map((i) =>
        deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress, FROM: `mail${i}@example.com` }), {
          to: inbox.emailAddress,
        }),
      ),
    );
    const ids = (
      await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/tickets?limit=100", { token: ws.token })
    ).body.data.map((t) => t.id);
    expect(ids).toHaveLength(7);
    expect(ids).toContain(ticket.id);

    // Two replies per ticket, all at once: 14 replies, and one first response per ticket that began with a customer message.
    const replies = await Promise.all(ids.flatMap((id) => [reply(ws, id), reply(ws, id)]));
    for (const res of replies) expect(res.status).toBe(201);
    // Each ticket resolved twice at once, then one reopened twice: a repeat changes nothing.
    const resolves = await Promise.all(
      ids.flatMap((id) => [manage(ws, id, "resolve"), manage(ws, id, "resolve")]),
    );
    for (const res of resolves) expect(res.status).toBe(200);
    // One reopened by the manage action, twice at once, then closed; one by its customer writing again.
    const [reopenedId = "", writtenId = ""] = ids;
    await Promise.all([manage(ws, reopenedId, "reopen"), manage(ws, reopenedId, "reopen")]);
    await manage(ws, reopenedId, "close");
    const again = await call("POST", `/v1/tickets/${writtenId}/messages`, {
      token: ws.token,
      body: { type: "customer", body_text: "Still broken." },
    });
    expect(again.status).toBe(201);
    // A draft counts when it is sent, once however often the send is repeated.
    const draft = await callJson<{ id: string }>("POST", `/v1/tickets/${writtenId}/messages`, {
      token: ws.token,
      body: { type: "reply", body_text: "Looking.", draft: true },
    });
    expect(draft.status).toBe(201);
    const sends = await Promise.all(
      [1, 2].map(() => call("POST", `/v1/messages/${draft.body.id}/send`, { token: ws.token })),
    );
    expect(sends.map((res) => res.status).sort()).toContain(200);

    const { totals, data } = await report(ws);
    expect(data).toHaveLength(30);
    expect(totals).toMatchObject({ created: 7, replies: 15, resolved: 8, reopened: 2, first_responses: 6 });
    expect(data.at(-1)).toMatchObject({ created: 7, replies: 15, resolved: 8, reopened: 2 });
    expect(totals.first_response_p50).toBeGreaterThanOrEqual(0);
    expect(totals.resolution_p90).toBeGreaterThanOrEqual(0);
  });

  it("first-response and resolution percentiles are within the sketch's 1% of known durations, merged over days and weeks", async () => {
    const ws = await seedWorkspace();
    const inbox = await seedInbox(ws.accountId);
    const monday = Date.UTC(2026, 0, 5);
    const firstResponses: number[] = [];
    const resolutions: number[] = [];
    for (let i = 1; i <= 60; i++) {
      const firstResponse = i * 37;
      const resolution = 3600 + i * i * 11;
      firstResponses.push(firstResponse);
      resolutions.push(resolution);
      // Three days of the week, Tuesday twice the others.
      await ticketRows(ws.accountId, inbox.id, monday + (i % 4 === 0 ? 1 : i % 4) * DAY + 3600_000, {
        firstResponse,
        resolution,
      });
    }
    const weekly = await report(ws, "?from=2026-01-05&to=2026-01-19&interval=week");
    expect(weekly.data.map((d) => d.start)).toEqual(["2026-01-05T00:00:00.000Z", "2026-01-12T00:00:00.000Z"]);
    const [week] = weekly.data;
    expect(week).toMatchObject({ created: 60, resolved: 60, replies: 60, first_responses: 60 });
    expectWithinSketchError(week?.first_response_p50 ?? null, firstResponses, 0.5);
    expectWithinSketchError(week?.first_response_p90 ?? null, firstResponses, 0.9);
    expectWithinSketchError(week?.resolution_p50 ?? null, resolutions, 0.5);
    expectWithinSketchError(week?.resolution_p90 ?? null, resolutions, 0.9);
    expect(weekly.data[1]).toMatchObject({
      created: 0,
      first_response_p50: null,
      csat_average: null,
      nps: null,
    });

    // A later duration on a day already sketched is seen: the cached sketch is rebuilt.
    await ticketRows(ws.accountId, inbox.id, monday + DAY, { firstResponse: 100_000 });
    const again = await report(ws, "?from=2026-01-05&to=2026-01-12&interval=week");
    expect(again.totals.first_responses).toBe(61);
    expectWithinSketchError(again.totals.first_response_p90, [...firstResponses, 100_000], 0.9);
    const daily = await report(ws, "?from=2026-01-05&to=2026-01-12");
    expect(daily.data.map((d) => d.created)).toEqual([0, 31, 15, 15, 0, 0, 0]);
  });

  it("counts CSAT and NPS answers given concurrently on the public page, a second answer re-rating", async () => {
    const { ws, inbox } = await ticketWorkspace("rsrv");
    const agent = await seedUser(ws.accountId);
    const csat = await createSurvey(ws.token, {
      name: "CSAT",
      kind: "csat",
      question: "How?",
      inbox_ids: [inbox.id],
    });
    const nps = await createSurvey(ws.token, {
      name: "NPS",
      kind: "nps",
      question: "Recommend?",
      inbox_ids: [],
    });
    const desk = { ws, inbox };
    const csatTickets = await Promise.all(
      [1, 2, 3].map(() => seedRequest(desk, csat.id, undefined, agent.id)),
    );
    const npsTickets = await Promise.all([1, 2, 3, 4].map(() => seedRequest(desk, nps.id)));
    const csatRatings = [5, 4, 1];
    const npsRatings = [10, 9, 7, 3];
    const answers = await Promise.all([
      ...csatTickets.map(async (t, i) => answer(await tokenFor(t.id, csatRatings[i] ?? 0))),
      ...npsTickets.map(async (t, i) => answer(await tokenFor(t.id, npsRatings[i] ?? 0))),
      // The same rating twice: one response.
      answer(await tokenFor(csatTickets[0]?.id ?? "", 5)),
    ]);
    for (const res of answers) expect(res.status).toBe(200);
    // A changed mind: 1 becomes 3.
    expect((await answer(await tokenFor(csatTickets[2]?.id ?? "", 3))).status).toBe(200);

    const { totals } = await report(ws);
    expect(totals).toMatchObject({
      csat_responses: 3,
      csat_average: 4,
      nps_responses: 4,
      nps_promoters: 2,
      nps_passives: 1,
      nps_detractors: 1,
      nps: 25,
    });
    const byAgent = await report(ws, `?assignee_id=${agent.id}`);
    expect(byAgent.totals).toMatchObject({ csat_responses: 3, nps_responses: 0, created: 0 });
  });

  it("filters by inbox, assignee or both, and another workspace sees none of it", async () => {
    const ws = await seedWorkspace();
    const one = await seedInbox(ws.accountId);
    const two = await seedInbox(ws.accountId);
    const agent = await seedUser(ws.accountId);
    const at = Date.UTC(2026, 1, 10, 12);
    await ticketRows(ws.accountId, one.id, at, { firstResponse: 60, assigneeId: agent.id });
    await ticketRows(ws.accountId, one.id, at, { firstResponse: 120 });
    await ticketRows(ws.accountId, two.id, at, { firstResponse: 600, resolution: 900, assigneeId: agent.id });
    const period = "?from=2026-02-10&to=2026-02-11";
    expect((await report(ws, period)).totals).toMatchObject({ created: 3, replies: 3, resolved: 1 });
    const inboxOne = (await report(ws, `${period}&inbox_id=${one.id}`)).totals;
    expect(inboxOne).toMatchObject({ created: 2, resolved: 0, first_responses: 2 });
    expectWithinSketchError(inboxOne.first_response_p90, [60, 120], 0.9);
    expect((await report(ws, `${period}&inbox_id=${two.id}`)).totals).toMatchObject({
      created: 1,
      resolved: 1,
    });
    expect((await report(ws, `${period}&assignee_id=${agent.id}`)).totals).toMatchObject({
      created: 2,
      replies: 2,
      resolved: 1,
    });
    // Both together: the agent's tickets of one inbox, their durations only.
    const agentInOne = (await report(ws, `${period}&inbox_id=${one.id}&assignee_id=${agent.id}`)).totals;
    expect(agentInOne).toMatchObject({ created: 1, replies: 1, resolved: 0, first_responses: 1 });
    expectWithinSketchError(agentInOne.first_response_p50, [60], 0.5);
    const agentInTwo = (await report(ws, `${period}&inbox_id=${two.id}&assignee_id=${agent.id}`)).totals;
    expect(agentInTwo).toMatchObject({ created: 1, replies: 1, resolved: 1, first_responses: 1 });
    expectWithinSketchError(agentInTwo.resolution_p50, [900], 0.5);

    const other = await seedWorkspace();
    expect((await report(other, period)).totals).toMatchObject({
      created: 0,
      replies: 0,
      first_response_p50: null,
    });
    expect((await report(other, `${period}&inbox_id=${one.id}`)).totals.created).toBe(0);
  });

  it("answers a clear 400 for a bad period, interval or filter", async () => {
    const ws = await seedWorkspace();
    for (const query of [
      "?interval=month",
      "?from=2026-03-01&to=2026-03-01",
      "?from=2026-03-02&to=2026-03-01",
      "?from=2024-01-01&to=2026-01-01",
      "?from=2026-03-01T12:00:00Z",
      "?from=yesterday",
      "?from=2026-02-30",
      "?to=2026-03-01T00:00:00%2B02:00",
      "?to=March%201%202026",
    ]) {
      const res = await callJson<{ error: string }>("GET", `/v1/reports/support${query}`, {
        token: ws.token,
      });
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toEqual(expect.any(String));
    }
    expect((await report(ws, "?from=2024-01-01&to=2026-01-01&interval=week")).data).toHaveLength(105);
    expect((await report(ws, "?from=2025-01-01&to=2026-01-02")).data).toHaveLength(366);
    expect((await report(ws, "?from=2026-02-28T00:00:00Z&to=2026-03-01T00:00:00.000Z")).data).toHaveLength(1);
    const defaults = await report(ws);
    expect(defaults.interval).toBe("day");
    expect(Date.parse(defaults.to) - Date.parse(defaults.from)).toBe(30 * DAY);
    expect(Date.parse(defaults.to)).toBeGreaterThan(Date.now());
  });
  it("migrations 0026 and 0027's backfills rebuild from existing tickets, messages and answers what the triggers counted", async () => {
    const { ws, inbox } = await ticketWorkspace("rbf");
    const agent = await seedUser(ws.accountId);
    const at = Date.UTC(2026, 2, 3, 9);
    await ticketRows(ws.accountId, inbox.id, at, {
      firstResponse: 300,
      resolution: (2 * DAY) / 1000,
      assigneeId: agent.id,
    });
    await ticketRows(ws.accountId, inbox.id, at + DAY, { firstResponse: 50 });
    await ticketRows(ws.accountId, inbox.id, at + DAY, { resolution: 7200 });
    const imported = await callJson("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "bo@example.com" }, subject: "Old", status: "closed" },
    });
    expect(imported.status).toBe(201);
    const nps = await createSurvey(ws.token, {
      name: "NPS",
      kind: "nps",
      question: "Recommend?",
      inbox_ids: [],
    });
    const rated = await seedRequest({ ws, inbox }, nps.id, undefined, agent.id);
    expect((await answer(await tokenFor(rated.id, 8))).status).toBe(200);

    const live = await env.DB_2.prepare(
      `SELECT ${ROLLUP_COLUMNS} FROM support_daily WHERE account_id = ? ORDER BY dimension, dimension_value, day`,
    )
      .bind(ws.accountId)
      .all();
    expect(live.results.length).toBeGreaterThan(6);
    expect(await backfillOf(ws.accountId)).toEqual(live.results);
  });
  it("reads a range of the day rows' primary key, and durations by (account, kind, day)", async () => {
    for (const slice of [
      { accountId: "acc_x", dimension: "all" as const, value: "" },
      { accountId: "acc_x", dimension: "inbox" as const, value: "inb_x", inboxId: "inb_x" },
      {
        accountId: "acc_x",
        dimension: "inbox_assignee" as const,
        value: "inb_x/usr_y",
        inboxId: "inb_x",
        assigneeId: "usr_y",
      },
    ]) {
      expectIndexed(await planOf(supportDaysQuery(db(), slice, 0, 30 * DAY)), "support_daily");
      expectIndexed(
        await planOf(durationsQuery(db(), slice, "first_response", 0, 30 * DAY)),
        "support_durations",
      );
    }
  });
  it("a merge closes the merged ticket without resolving it; a ticket created resolved is resolved", async () => {
    const { ws, inbox, ticket } = await ticketWorkspace("rmrg");
    const other = await callJson<{ id: string }>("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "ada@example.com" }, subject: "Same again" },
    });
    const merged = await call("POST", `/v1/tickets/${other.body.id}/manage`, {
      token: ws.token,
      body: { action: "merge", into_ticket_id: ticket.id },
    });
    expect(merged.status).toBe(200);
    expect((await report(ws)).totals).toMatchObject({ created: 2, resolved: 0, resolution_p50: null });
    expect((await manage(ws, ticket.id, "close")).status).toBe(200);
    expect((await report(ws)).totals).toMatchObject({ created: 2, resolved: 1 });
    // A ticket created resolved (an import) is resolved that day, in no time.
    const imported = await callJson("POST", "/v1/tickets", {
      token: ws.token,
      body: { inbox_id: inbox.id, customer: { email: "bo@example.com" }, subject: "Old", status: "resolved" },
    });
    expect(imported.status).toBe(201);
    expect((await report(ws)).totals).toMatchObject({ created: 3, resolved: 2 });
  });
});
