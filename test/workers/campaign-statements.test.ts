import { describe, expect, it } from "vitest";
import { claimedBy, startSending } from "../../src/features/campaigns/recipients.repo";
import { sendCampaignBatch } from "../../src/features/campaigns/send-batch";
import { type AttemptEndItem, attemptEndStatements } from "../../src/features/emails/attempt-end.repo";
import { insertEmailChildren, insertEmailRowsIf } from "../../src/features/emails/email-insert";
import type { EmailRow, NewEmailRow } from "../../src/features/emails/emails.repo";
import { campaignOf, campaignWorkspace, createCampaign, manyMembers } from "./campaigns-helpers";
import { callJson, db, shardD1Of, shardEnv } from "./helpers";
import { planOf } from "./query-plan";

/**
 * What a campaign batch asks of D1 per recipient: the facts that count every email (the report's
 * rollups, the webhooks' events, the campaign's counters) run once for the emails accepted,
 * handed off or ended together, not once an email; and what they count is still every email once.
 */

/** The shard's binding, keeping every statement's SQL as it is run (alone or in a batch). */
function recording(d1: D1Database) {
  const run: string[] = [];
  const sqlOf = new WeakMap<object, string>();
  const real = new WeakMap<object, D1PreparedStatement>();
  const wrap = (statement: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => wrap(target.bind(...values), sql);
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (typeof prop === "string" && ["run", "all", "first", "raw"].includes(prop)) run.push(sql);
          return value.apply(target, args);
        };
      },
    });
    sqlOf.set(proxy, sql);
    real.set(proxy, statement);
    return proxy;
  };
  const binding = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return (query: string) => wrap(target.prepare(query), query);
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) => {
          for (const s of statements) run.push(sqlOf.get(s) ?? "");
          return target.batch(statements.map((s) => real.get(s) ?? s));
        };
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, run };
}

const count = (run: string[], pattern: RegExp) => run.filter((sql) => pattern.test(sql)).length;

describe("a campaign batch's statements", { timeout: 60_000 }, () => {
  it("counts the emails accepted, handed off and ended together in one statement per round", async () => {
    const ws = await campaignWorkspace(manyMembers(100));
    const hook = await callJson("POST", "/v1/webhooks", {
      token: ws.token,
      body: { url: "https://hooks.example.com/in", events: ["email.sent", "email.delivered"] },
    });
    expect(hook.status).toBe(201);
    const campaign = await createCampaign(ws);
    expect(await startSending(db(), ws.accountId, campaign.id, Date.now())).toBe(true);

    const env = shardEnv();
    const { binding, run } = recording(env.DB);
    expect(await sendCampaignBatch({ ...env, DB: binding }, campaign.id, Date.now())).toBe("continue");

    // Every email once, in every count.
    const sent = await campaignOf(ws.token, campaign.id);
    expect(sent.stats).toMatchObject({ recipients: 100, sent: 100, failed: 0 });
    const daily = await shardD1Of()
      .prepare("SELECT accepted, sent, delivered FROM email_daily WHERE account_id = ? AND dim = ''")
      .bind(ws.accountId)
      .first();
    expect(daily).toEqual({ accepted: 100, sent: 100, delivered: 100 });
    const { results: events } = await shardD1Of()
      .prepare(
        "SELECT event, count(*) AS n, count(DISTINCT json_extract(body, '$.data.email_id')) AS emails FROM email_webhook_outbox WHERE account_id = ? GROUP BY event ORDER BY event",
      )
      .bind(ws.accountId)
      .all();
    expect(events).toEqual([
      { event: "email.delivered", n: 100, emails: 100 },
      { event: "email.sent", n: 100, emails: 100 },
    ]);

    // The counts ran once a round: the rollups (accepted, then sent and delivered per round of
    // hand-offs and of ends), the events, the campaign's counter, the claims, the hand-offs and
    // the recipients' outcomes, each far fewer than one an email (a round takes what is ready while the one before it is
    // written: a few here).
    const rollups = count(run, /^\s*WITH e AS \(SELECT id, seq, account_id/);
    // email.sent names the email's only recipient; email.delivered reads the recipients' facts.
    const sentEvents = count(run, /min\(x\.address\)[\s\S]*INSERT INTO email_webhook_outbox/);
    const deliveredEvents = count(run, /'\$\.emailId'[\s\S]*INSERT INTO email_webhook_outbox/);
    const counters = count(run, /^\s*UPDATE campaigns SET sent_count/);
    const outcomes = count(run, /^\s*UPDATE email_recipients SET state = o\.value/);
    const handOffs = count(run, /^\s*UPDATE email_recipients SET state = 'sending'/);
    const claims = count(run, /^update "emails" set "status" = \?, "attempts"/);
    const recipients = count(run, /^\s*INSERT OR IGNORE INTO email_recipients/);
    const rows = count(run, /^INSERT INTO emails \(/);
    for (const rounds of [
      sentEvents,
      deliveredEvents,
      counters,
      outcomes,
      handOffs,
      claims,
      recipients,
      rows,
    ]) {
      expect(rounds).toBeGreaterThan(0);
      expect(rounds).toBeLessThan(25);
    }
    expect(rollups).toBeLessThan(1 + 2 * 25);
    // Nothing is left one an email: the emails' rows are written together too, each on its claim.
    expect(run.length / 100).toBeLessThan(1);
  });

  it("reads every table of a round's emails, rows and ends through an index", async () => {
    const end = (i: number): AttemptEndItem => ({
      email: { id: `eml_${i}`, seq: i, attempts: 1, accountId: "acc_X", campaignId: "cmp_X" } as EmailRow,
      outcomes: [{ address: `r${i}@example.com`, state: "accepted", response: "250 OK" }],
      changes: {
        status: "sent",
        lastEvent: "sent",
        lastResponse: "250 OK",
        sentAt: 1,
        size: 10,
        storedBytes: 10,
      },
      detail: "250 OK",
      now: 1,
    });
    const children = [1, 2].map((i) => ({
      row: { id: `eml_${i}`, createdAt: 1 },
      recipients: [`r${i}@example.com`],
      tags: [{ name: "campaign", value: "cmp_X" }],
    }));
    const rows = [1, 2].map(
      (i) =>
        ({ id: `eml_${i}`, accountId: "acc_X", from: "a@b.example", to: "[]", subject: "s" }) as NewEmailRow,
    );
    const claimed = insertEmailRowsIf(rows, {
      keyOf: (_, i) => `cus_${i}`,
      holds: (email) => claimedBy("cmp_X", email.key, email.id),
    });
    for (const statement of [
      ...attemptEndStatements([end(1), end(2)]),
      ...insertEmailChildren(children),
      ...claimed,
    ]) {
      const plan = (await planOf(statement as Parameters<typeof planOf>[0])).join("\n");
      expect(plan).not.toMatch(
        /SCAN (emails|email_recipients|email_events|campaigns|campaign_recipients|account_usage|email_daily)\b/,
      );
    }
  });
});
