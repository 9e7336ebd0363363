import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it, vi } from "vitest";
import compactEmails from "../../migrations/0031_compact_emails.sql?raw";
import { deliverEmail } from "../../src/features/emails/deliver";
import worker from "../../src/index";
import { call, callJson, eventually, seedWorkspace, sendingWorkspace, shardEnv } from "./helpers";
import { deliver, FIXTURES } from "./inbound-helpers";
import { MAILER_DAEMON, report, returnPathOf, setUp } from "./reports-helpers";
import { heldEmail, smtpEnv } from "./smtp-env";
import { answer, createSurvey, seedRequest, setStatus, tokenFor } from "./surveys-helpers";
import { setAccountStatus } from "./suspension-helpers";
import { openTicket } from "./webhook-helpers";

// Real sends through the queue, reports through the email handler: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

type Counts = Record<string, number | null>;
interface Report {
  data: Array<Counts & { start: string; end: string }>;
  totals: Counts;
  from: string;
  to: string;
  interval: string;
}

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

async function reportOf(token: string, query = "") {
  const res = await callJson<Report>("GET", `/v1/reports/email?from=${today()}&to=${tomorrow()}${query}`, {
    token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

const ZERO = {
  accepted: 0,
  sent: 0,
  delivered: 0,
  bounced_hard: 0,
  bounced_soft: 0,
  complained: 0,
  opened: 0,
  clicked: 0,
  suppressed: 0,
  failed: 0,
};

interface Sent {
  id: string;
  messageId: string;
  bounce: string;
  domain: string;
  content: string;
}

/** One email through POST /v1/emails and the real queue consumer, waited for until `sent`. */
async function send(
  setup: Awaited<ReturnType<typeof setUp>>,
  to: string,
  tags: Array<{ name: string; value: string }>,
) {
  const { status, body } = await callJson<{ id: string }>("POST", "/v1/emails", {
    token: setup.ws.token,
    body: {
      from: `Acme <hello@${setup.domain}>`,
      to,
      subject: "Your receipt",
      html: '<p>Thanks. <a href="https://shop.example/orders/1">Your order</a></p>',
      text: "Thanks.",
      tags,
      track_opens: true,
      track_clicks: true,
    },
  });
  expect(status).toBe(200);
  return sentOf(setup, body.id, to);
}

async function sentOf(setup: Awaited<ReturnType<typeof setUp>>, id: string, to: string): Promise<Sent> {
  const email = await eventually(async () => {
    const { body } = await callJson<{ status: string; message_id: string }>("GET", `/v1/emails/${id}`, {
      token: setup.ws.token,
    });
    return body.status === "sent" ? body : null;
  });
  const content = await (await call("GET", `/v1/emails/${id}/content`, { token: setup.ws.token })).text();
  return {
    id,
    messageId: email.message_id,
    bounce: await returnPathOf(id, to),
    domain: setup.domain,
    content,
  };
}

/**
 * The same queue messages handled again, as a redelivery does: each names its email's workspace,
 * as enqueueEmails writes them.
 */
async function redeliver(accountId: string, ids: string[]) {
  const batch = createMessageBatch(
    "email-send",
    ids.map((emailId, i) => ({
      id: `redelivered-${i}`,
      timestamp: new Date(),
      attempts: 2,
      body: { emailId, accountId },
    })),
  );
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

async function trackingUrls(sent: Sent) {
  const html = (await PostalMime.parse(sent.content)).html ?? "";
  const pixel = new URL(/<img src="([^"]+)"/.exec(html)?.[1] ?? "");
  const click = new URL((/<a href="([^"]+)"/.exec(html)?.[1] ?? "").replaceAll("&amp;", "&"));
  return { open: pixel.pathname, click: `${click.pathname}${click.search}` };
}

const twice = <T>(run: () => Promise<T>) => Promise.all([run(), run()]);

/** The rollups' backfill as the latest migration that has one runs it (on the compact keys). */
async function runBackfills() {
  for (const sql of [compactEmails]) {
    const backfill = sql.slice(sql.indexOf("-- Backfill"));
    for (const statement of backfill.split("--> statement-breakpoint")) {
      if (statement.replace(/--.*$/gm, "").trim()) await env.DB_2.prepare(statement).run();
    }
  }
}

describe("GET /v1/reports/email", () => {
  it("counts what happened exactly, under concurrency and redelivery, per workspace, inbox and tag", async () => {
    const setup = await setUp();
    const inbox = (
      await callJson<{ data: Array<{ id: string }> }>("GET", "/v1/inboxes", { token: setup.ws.token })
    ).body.data[0] as { id: string };
    // A ticket to reply to, and another to resolve and rate (a survey sent to no inbox: resolving
    // sends no survey email, the answer comes from a request written as the resolve would).
    const ticket = await openTicket(setup.ws.token, inbox.id);
    const csat = await createSurvey(setup.ws.token, {
      name: "CSAT",
      kind: "csat",
      question: "How?",
      inbox_ids: [],
    });
    const rated = await seedRequest({ ws: setup.ws, inbox }, csat.id);
    const rating = await tokenFor(rated.id, 4);
    const welcome = [{ name: "category", value: "welcome" }];
    const [hard, soft, angry, reader] = await Promise.all([
      send(setup, "gone@example.net", welcome),
      send(setup, "slow@example.org", []),
      send(setup, "angry@example.net", welcome),
      send(setup, "reader@example.com", [{ name: "category", value: "receipt" }]),
    ]);
    const ids = [hard, soft, angry, reader].map((s) => s.id);
    const urls = await trackingUrls(reader as Sent);
    const bounceTo = (sent: Sent) => ({ from: MAILER_DAEMON, to: sent.bounce });
    await Promise.all([
      twice(() =>
        deliver(report(FIXTURES.dsnHard, hard as Sent, "gone@example.net"), bounceTo(hard as Sent)),
      ),
      twice(() =>
        deliver(report(FIXTURES.dsnSoft, soft as Sent, "slow@example.org"), bounceTo(soft as Sent)),
      ),
      twice(() => deliver(report(FIXTURES.arf, angry as Sent, "angry@example.net"), bounceTo(angry as Sent))),
      twice(() => call("GET", urls.open)),
      twice(() => call("GET", urls.click)),
      twice(() => redeliver(setup.ws.accountId, ids)),
      // Two replies (two emails of the inbox), a resolve and a rating sent twice each, meanwhile.
      ...["On it.", "Fixed."].map((text) =>
        callJson("POST", `/v1/tickets/${ticket.id}/messages`, {
          token: setup.ws.token,
          body: { body_text: text },
        }),
      ),
      twice(() => setStatus(setup.ws, rated.id, "resolved")),
      twice(() => answer(rating)),
    ]);
    // The same report, open and click once more, after the fact.
    await deliver(report(FIXTURES.dsnHard, hard as Sent, "gone@example.net"), bounceTo(hard as Sent));
    await call("GET", urls.open);
    await call("GET", urls.click);

    // The replies' emails, the inbox's only ones, sent and their queue messages redelivered.
    const { results: replies } = await env.DB_2.prepare(
      "SELECT email_id FROM messages WHERE ticket_id = ? AND email_id IS NOT NULL",
    )
      .bind(ticket.id)
      .all<{ email_id: string }>();
    const replyEmails = replies.map((r) => r.email_id);
    expect(replyEmails).toHaveLength(2);
    for (const id of replyEmails) await sentOf(setup, id, "ada@example.com");
    await twice(() => redeliver(setup.ws.accountId, replyEmails));

    const all = await reportOf(setup.ws.token);
    const expected = {
      ...ZERO,
      accepted: 6,
      sent: 6,
      delivered: 6,
      bounced_hard: 1,
      bounced_soft: 1,
      complained: 1,
      opened: 1,
      clicked: 1,
      bounce_rate: 1 / 6,
      complaint_rate: 1 / 6,
      open_rate: 1 / 6,
      click_rate: 1 / 6,
    };
    expect(all.totals).toEqual(expected);
    expect(all.data).toEqual([
      { start: `${today()}T00:00:00.000Z`, end: `${tomorrow()}T00:00:00.000Z`, ...expected },
    ]);
    expect(all).toMatchObject({
      from: `${today()}T00:00:00.000Z`,
      to: `${tomorrow()}T00:00:00.000Z`,
      interval: "day",
    });

    const tagged = await reportOf(setup.ws.token, "&tag=category:welcome");
    expect(tagged.totals).toMatchObject({
      ...ZERO,
      accepted: 2,
      sent: 2,
      delivered: 2,
      bounced_hard: 1,
      complained: 1,
      bounce_rate: 0.5,
      open_rate: 0,
    });
    expect((await reportOf(setup.ws.token, "&tag=category:receipt")).totals).toMatchObject({
      accepted: 1,
      opened: 1,
      clicked: 1,
      bounced_hard: 0,
    });
    expect((await reportOf(setup.ws.token, `&inbox_id=${inbox.id}`)).totals).toMatchObject({
      ...ZERO,
      accepted: 2,
      sent: 2,
      delivered: 2,
    });
    // The support side of the same run: two tickets, two replies, one resolution, one rating.
    const support = await callJson<{ totals: Record<string, number | null> }>(
      "GET",
      `/v1/reports/support?from=${today()}&to=${tomorrow()}`,
      { token: setup.ws.token },
    );
    expect(support.body.totals).toMatchObject({
      created: 2,
      replies: 2,
      resolved: 1,
      reopened: 0,
      csat_responses: 1,
      csat_average: 4,
    });

    // Tenancy: another workspace's report is its own, and cannot read this one's inbox.
    const other = await seedWorkspace();
    expect((await reportOf(other.token)).totals).toEqual({
      ...ZERO,
      bounce_rate: null,
      complaint_rate: null,
      open_rate: null,
      click_rate: null,
    });
    const foreign = await call("GET", `/v1/reports/email?inbox_id=${inbox.id}`, { token: other.token });
    expect(foreign.status).toBe(404);

    // The backfill rebuilds the same rollups from the rows.
    await env.DB_2.prepare("DELETE FROM email_daily WHERE account_id = ?").bind(setup.ws.accountId).run();
    expect((await reportOf(setup.ws.token)).totals.accepted).toBe(0);
    await runBackfills();
    expect((await reportOf(setup.ws.token)).totals).toEqual(expected);
    expect((await reportOf(setup.ws.token, "&tag=category:welcome")).totals).toEqual(tagged.totals);
    expect((await reportOf(setup.ws.token, `&inbox_id=${inbox.id}`)).totals.accepted).toBe(2);
  });

  it("counts a bounce or complaint once per email, however many of its recipients it is about", async () => {
    const setup = await setUp();
    const to = ["one@example.net", "two@example.net", "three@example.net"];
    const { status, body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: setup.ws.token,
      body: { from: `Acme <hello@${setup.domain}>`, to, subject: "Your receipt", text: "Thanks." },
    });
    expect(status).toBe(200);
    const first = await sentOf(setup, body.id, "one@example.net");
    const about = async (recipient: string) => ({ ...first, bounce: await returnPathOf(body.id, recipient) });
    const [one, two, three] = (await Promise.all(to.map(about))) as [Sent, Sent, Sent];
    await Promise.all([
      deliver(report(FIXTURES.dsnHard, one, "one@example.net"), { from: MAILER_DAEMON, to: one.bounce }),
      deliver(report(FIXTURES.dsnHard, two, "two@example.net"), { from: MAILER_DAEMON, to: two.bounce }),
      deliver(report(FIXTURES.arf, three, "three@example.net"), { from: MAILER_DAEMON, to: three.bounce }),
      deliver(report(FIXTURES.arf, one, "one@example.net"), { from: MAILER_DAEMON, to: one.bounce }),
    ]);
    // One email, sent and delivered once: two hard bounces and two complaints make one of each,
    // so the rates stay at most 100%.
    const expected = {
      ...ZERO,
      accepted: 1,
      sent: 1,
      delivered: 1,
      bounced_hard: 1,
      complained: 1,
      bounce_rate: 1,
      complaint_rate: 1,
      open_rate: 0,
      click_rate: 0,
    };
    expect((await reportOf(setup.ws.token)).totals).toEqual(expected);
    await env.DB_2.prepare("DELETE FROM email_daily WHERE account_id = ?").bind(setup.ws.accountId).run();
    await runBackfills();
    expect((await reportOf(setup.ws.token)).totals).toEqual(expected);
  });

  it("counts a failed email once, however often its queue message is handled", async () => {
    const ws = await sendingWorkspace(`fail-${crypto.randomUUID().slice(0, 8)}.test`);
    const created = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `hello@${ws.domain}`,
        to: "ada@example.com",
        subject: "Your receipt",
        text: "Thanks",
        scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
      },
    });
    // Suspended after it was accepted, then due: the consumer ends it failed, never sent.
    await setAccountStatus(ws.accountId, "suspended");
    await env.DB_2.prepare("UPDATE emails SET status = 'queued', scheduled_at = NULL WHERE id = ?")
      .bind(created.body.id)
      .run();
    await Promise.all([
      deliverEmail(shardEnv(), created.body.id),
      deliverEmail(shardEnv(), created.body.id),
      redeliver(ws.accountId, [created.body.id]),
    ]);
    await setAccountStatus(ws.accountId, "active");
    expect((await reportOf(ws.token)).totals).toMatchObject({ ...ZERO, accepted: 1, failed: 1 });
  });

  it("counts an email retried six times for a deferring recipient as sent, delivered and soft-bounced once each", async () => {
    const { ws, id } = await heldEmail("partial.test", ["ada@example.com", "busy@example.test"]);
    const grey = await heldEmail("greylist.test", ["busy@example.test"]);
    // Each attempt an hour after the last (as retryUntilDone in send-retries.test.ts): up to 6 hours.
    for (const email of [id, grey.id]) {
      let now = Date.now();
      let outcome = await deliverEmail(smtpEnv, email, now);
      while (outcome.kind === "retry") {
        now += 3_600_000;
        outcome = await deliverEmail(smtpEnv, email, now);
      }
    }
    const period = `/v1/reports/email?from=${today()}&to=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}`;
    const totals = async (token: string) => (await callJson<Report>("GET", period, { token })).body.totals;
    expect(await totals(ws.token)).toMatchObject({
      ...ZERO,
      accepted: 1,
      sent: 1,
      delivered: 1,
      bounced_soft: 1,
    });
    // Deferred at RCPT on every attempt, the message itself was never handed over: not sent.
    expect(await totals(grey.ws.token)).toMatchObject({
      ...ZERO,
      accepted: 1,
      bounced_soft: 1,
      failed: 1,
    });
  });

  it("defaults to the last 30 days, cuts weeks on Mondays (UTC) and refuses a bad period with a 400", async () => {
    const ws = await seedWorkspace();
    const byDefault = (await callJson<Report>("GET", "/v1/reports/email", { token: ws.token })).body;
    expect(byDefault.data).toHaveLength(30);
    expect(byDefault.to).toBe(`${tomorrow()}T00:00:00.000Z`);

    const weeks = (
      await callJson<Report>("GET", "/v1/reports/email?from=2026-11-04&to=2026-11-20&interval=week", {
        token: ws.token,
      })
    ).body;
    // 2026-11-02 and 2026-11-23 are Mondays.
    expect(weeks.from).toBe("2026-11-02T00:00:00.000Z");
    expect(weeks.to).toBe("2026-11-23T00:00:00.000Z");
    expect(weeks.data.map((w) => w.start)).toEqual([
      "2026-11-02T00:00:00.000Z",
      "2026-11-09T00:00:00.000Z",
      "2026-11-16T00:00:00.000Z",
    ]);

    for (const query of [
      "from=2026-11-10&to=2026-11-01",
      "from=2026-11-01&to=2026-11-01",
      "from=yesterday",
      "from=2026-02-30",
      "to=2026-13-01",
      "interval=month",
      "from=2020-01-01&to=2026-01-01",
      "inbox_id=nope",
      "tag=category",
      // One filter at a time: the rollups count each email per dimension, not per pair of them.
      "tag=category:welcome&inbox_id=inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    ]) {
      const res = await callJson<{ error: string }>("GET", `/v1/reports/email?${query}`, { token: ws.token });
      expect([query, res.status]).toEqual([query, 400]);
      expect(typeof res.body.error).toBe("string");
    }
    // 366 days is the most; as weeks, 7 years fit.
    const most = await call("GET", "/v1/reports/email?from=2025-01-01&to=2026-01-02", { token: ws.token });
    expect(most.status).toBe(200);
    const tooMany = await call("GET", "/v1/reports/email?from=2025-01-01&to=2026-01-03", { token: ws.token });
    expect(tooMany.status).toBe(400);
    const asWeeks = await call("GET", "/v1/reports/email?from=2020-01-01&to=2026-01-01&interval=week", {
      token: ws.token,
    });
    expect(asWeeks.status).toBe(200);
  });
});
