/**
 * Every family of the service for a workspace living in one shard (issue 42): run by
 * shard-families-db.test.ts and shard-families-db2.test.ts, once for each of wrangler.toml's two
 * shards, through the real entry points only (the API, inbound mail, public links, the queues, the
 * Workflow, the dashboard). Each test also checks that the workspace's rows are in its shard and
 * none in the other.
 */
import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { shardD1 } from "../../src/db/shards";
import { activeAutomation, enrollmentsOf, trigger } from "./automations-api-helpers";
import { act, campaignOf, campaignWorkspace, createCampaign, emailsOf } from "./campaigns-helpers";
import { dashboardGet, signIn } from "./dashboard-helpers";
import { call, callJson, eventually, seedShard, TEST_SHARD, useShard } from "./helpers";
import { CUSTOMER, deliver, FIXTURES, generatedMail } from "./inbound-helpers";
import { postForm } from "./people-helpers";
import { MAILER_DAEMON, report, sentEmail, setUp, suppressionsOf } from "./reports-helpers";
import { sentSurveyEmail, setStatus, surveyDesk } from "./surveys-helpers";
import { awaitDeliveries, envelopesAt } from "./webhook-helpers";

/** Rows of `table` the workspace has in each shard. */
async function rowsByShard(table: string, accountId: string) {
  const counts: Record<string, number> = {};
  for (const shard of ["DB", "DB_2"]) {
    const row = await shardD1(env, shard)
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${table === "accounts" ? "id" : "account_id"} = ?`)
      .bind(accountId)
      .first<{ n: number }>();
    counts[shard] = row?.n ?? 0;
  }
  return counts;
}

/** The workspace's rows of each table are all in its shard: at least one there, none elsewhere. */
async function expectOnlyInShard(accountId: string, tables: string[]) {
  const other = seedShard() === "DB" ? "DB_2" : "DB";
  for (const table of tables) {
    const counts = await rowsByShard(table, accountId);
    expect({ table, here: (counts[seedShard()] ?? 0) > 0, there: counts[other] }).toEqual({
      table,
      here: true,
      there: 0,
    });
  }
}

/** The links of an email's HTML and text (its MIME as the transport kept it). */
async function linksOf(token: string, emailId: string) {
  const raw = await (await call("GET", `/v1/emails/${emailId}/content`, { token })).text();
  const parsed = await PostalMime.parse(raw);
  const html = parsed.html ?? "";
  return {
    pixel: /<img src="([^"]+)"/.exec(html)?.[1] ?? "",
    anchors: [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&")),
    text: parsed.text ?? "",
  };
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

export function familiesOn(shard: "DB" | "DB_2") {
  // Modules are shared by the files a pool worker runs one after another (isolate: false): the
  // shard is this file's only while it runs.
  beforeAll(() => useShard(shard));
  afterAll(() => {
    useShard(TEST_SHARD);
    vi.resetConfig();
  });
  // Each test sends through the queues and waits for them; a loaded machine outlasts 5 s.
  vi.setConfig({ testTimeout: 60_000 });

  it("keys, tickets, inbound mail, webhooks, the portal and the dashboard", async () => {
    const { ws, hook, address } = await setUp();
    const key = await callJson<{ token: string }>("POST", "/v1/keys", {
      token: ws.token,
      body: { name: "second", permission: "read" },
    });
    expect(key.status).toBe(201);
    expect((await call("GET", "/v1/tickets", { token: key.body.token })).status).toBe(200);

    const subject = `Printer on fire ${shard}`;
    expect(
      await deliver(generatedMail(address, subject, "text/plain", "It smokes."), { to: address }),
    ).toEqual({
      outcome: "accepted",
    });
    const ticket = await eventually(async () => {
      const list = await callJson<{ data: Array<{ id: string; subject: string; public_url: string }> }>(
        "GET",
        "/v1/tickets",
        { token: ws.token },
      );
      return list.body.data.find((t) => t.subject === subject) ?? null;
    });
    await awaitDeliveries(hook.path, 1);
    expect((await envelopesAt(hook.path)).map((e) => e.event)).toContain("ticket.created");

    const portal = await call("GET", pathOf(ticket.public_url));
    expect(portal.status).toBe(200);
    expect(await portal.text()).toContain(subject);

    const agent = await signIn(ws.accountId);
    const page = await dashboardGet("/dashboard/tickets", agent);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(subject);

    await expectOnlyInShard(ws.accountId, [
      "accounts",
      "api_keys",
      "tickets",
      "messages",
      "customers",
      "events",
    ]);
  });

  it("emails with open and click tracking, a bounce report to their Return-Path, and the relay's raw send", async () => {
    const sent = await sentEmail(["gone@example.net"]);
    const tracked = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: sent.ws.token,
      body: {
        from: `hello@${sent.domain}`,
        to: "reader@example.net",
        subject: "Tracked",
        html: '<p><a href="https://shop.example/order">Your order</a></p>',
        track_opens: true,
        track_clicks: true,
      },
    });
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/emails/${tracked.body.id}`, { token: sent.ws.token }))
          .body.status === "sent",
    );
    const links = await linksOf(sent.ws.token, tracked.body.id);
    expect((await call("GET", pathOf(links.pixel))).status).toBe(200);
    const click = await call("GET", pathOf(links.anchors[0] ?? ""));
    expect(click.status).toBe(302);
    expect(click.headers.get("Location")).toBe("https://shop.example/order");
    await eventually(async () => {
      const email = await callJson<{ opens: { count: number }; clicks: { count: number } }>(
        "GET",
        `/v1/emails/${tracked.body.id}`,
        { token: sent.ws.token },
      );
      return email.body.opens.count === 1 && email.body.clicks.count === 1;
    });

    const bounce = report(FIXTURES.dsnHard, sent, "gone@example.net", sent.bounce);
    expect(await deliver(bounce, { from: MAILER_DAEMON, to: sent.bounce })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(sent.ws.token)).toEqual([
      expect.objectContaining({ email: "gone@example.net", reason: "hard_bounce", source_email_id: sent.id }),
    ]);
    // A send to the address the bounce suppressed: refused, and counted once, in this shard.
    const refused = await callJson("POST", "/v1/emails", {
      token: sent.ws.token,
      body: { from: `hello@${sent.domain}`, to: "gone@example.net", subject: "Again", text: "Hello" },
    });
    expect(refused.status).toBe(422);
    const day = (offset: number) => new Date(Date.now() + offset).toISOString().slice(0, 10);
    const counted = await callJson<{ totals: { suppressed: number } }>(
      "GET",
      `/v1/reports/email?from=${day(0)}&to=${day(86_400_000)}`,
      { token: sent.ws.token },
    );
    expect(counted.body.totals.suppressed).toBe(1);

    // What the SMTP relay posts for each message it takes (smtp-relay/), as the relay does.
    const raw = [
      `From: hello@${sent.domain}`,
      "To: relayed@example.net",
      "Subject: Relayed",
      "MIME-Version: 1.0",
      "Content-Type: text/plain",
      "",
      "Through the relay.",
    ].join("\r\n");
    const relayed = await callJson<{ id: string }>("POST", "/v1/emails/raw", {
      token: sent.ws.token,
      body: { mail_from: `hello@${sent.domain}`, rcpt_to: ["relayed@example.net"], raw: btoa(raw) },
    });
    expect(relayed.status).toBe(200);
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/emails/${relayed.body.id}`, { token: sent.ws.token }))
          .body.status === "sent",
    );
    await expectOnlyInShard(sent.ws.accountId, ["emails", "suppressions", "mail_reports", "email_daily"]);
  });

  it("campaigns and their one-click unsubscribe link", async () => {
    const ws = await campaignWorkspace([
      { email: "ada@example.net", name: "Ada" },
      { email: "bob@example.net" },
    ]);
    const campaign = await createCampaign(ws);
    expect((await act(ws.token, campaign.id, "send")).status).toBe(200);
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).status === "sent");
    const [email] = await emailsOf(campaign.id);
    const unsubscribe =
      (await linksOf(ws.token, email?.id ?? "")).anchors.find((a) => a.includes("/u/")) ?? "";
    const oneClick = await postForm(pathOf(unsubscribe), { "List-Unsubscribe": "One-Click" });
    expect(oneClick.status).toBe(200);
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).stats.unsubscribed === 1);
    await expectOnlyInShard(ws.accountId, ["campaigns", "campaign_recipients", "unsubscribes"]);
  });

  it("automations run their steps in the Workflow", async () => {
    const { ws } = await setUp();
    const automation = await activeAutomation(ws.token, {
      steps: [{ type: "update_customer", metadata: { shard } }],
    });
    const enrolled = await trigger(ws.token, { automation_id: automation.id, customer: { email: CUSTOMER } });
    expect(enrolled.status).toBe(201);
    await eventually(async () => {
      const list = await enrollmentsOf(ws.token, automation.id);
      return list.body.data[0]?.status === "completed";
    });
    const customers = await callJson<{ data: Array<{ email: string; metadata: Record<string, unknown> }> }>(
      "GET",
      "/v1/customers",
      { token: ws.token },
    );
    expect(customers.body.data.find((c) => c.email === CUSTOMER)?.metadata).toEqual({ shard });
    await expectOnlyInShard(ws.accountId, ["automations", "automation_enrollments"]);
  });

  it("surveys: the rating link of the email a resolved ticket sends", async () => {
    const desk = await surveyDesk();
    expect((await setStatus(desk.ws, desk.ticket.id, "resolved")).status).toBe(200);
    const { email } = await sentSurveyEmail(desk.ws.accountId, desk.ticket.id);
    const link = /^5: (http\S+)$/m.exec(email.text ?? "")?.[1] ?? "";
    const page = await call("GET", pathOf(link));
    expect(page.status).toBe(200);
    const answered = await postForm(pathOf(link), { comment: `Great, from ${shard}` });
    expect(answered.status).toBeLessThan(400);
    const survey = await callJson<{ summary: { responses: number } }>(
      "GET",
      `/v1/surveys/${desk.survey.id}`,
      {
        token: desk.ws.token,
      },
    );
    expect(survey.body.summary.responses).toBe(1);
    await expectOnlyInShard(desk.ws.accountId, ["surveys", "survey_requests", "survey_responses"]);
  });
}
