import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { deliverEmail } from "../../src/features/emails/deliver";
import { claimEmail, handOff, LEASE_MS } from "../../src/features/emails/delivery.repo";
import { systemEmail } from "../../src/features/emails/system-mail";
import { recordBounce } from "../../src/features/suppressions/bounces";
import { reportStatements } from "../../src/inbound/reports/apply-report";
import { sweepEmails } from "../../src/jobs/sweep-emails";
import { EMAIL_EVENT_NAMES } from "../../src/webhooks/email-events";
import {
  automationWorkspace,
  runEnrollment,
  seedAutomation,
  seedCustomer as seedContact,
  seedEnrollment,
} from "./automations-helpers";
import { act, campaignOf, campaignWorkspace, createCampaign, emailsOf } from "./campaigns-helpers";
import { createEndpoint, hmacHex, sweepAt } from "./email-webhooks-helpers";
import { call, callJson, db, eventually, expectRetryAfter, sendingWorkspace, shardEnv } from "./helpers";
import { heldEmail, smtpEnv } from "./smtp-env";
import { oneClick, seedCampaign, seedCustomer, tokenFor } from "./unsubscribe-helpers";
import { awaitDeliveries, type Envelope, endpoint, envelopesAt, receivedAt } from "./webhook-helpers";

type Workspace = { token: string };

/** An endpoint of `ws` subscribed to every email event, on a receiver path of its own. */
async function listening(ws: Workspace) {
  const hook = endpoint();
  const created = await createEndpoint(ws.token, { url: hook.url, events: [...EMAIL_EVENT_NAMES] });
  return { ...hook, secret: created.secret };
}

/**
 * Runs the minute sweep at `at` (what delivers events whose announcement never came: these tests
 * write facts by calling the pipeline's functions, which announce nothing), then answers what
 * arrived, as [event, recipient] pairs too.
 */
async function deliveredTo(path: string, expected: number, at = Date.now()) {
  await sweepAt(at);
  await eventually(async () => (await receivedAt(path)).length >= expected);
  // A second sweep, as another minute's would, sends nothing again.
  await sweepAt(Math.max(at, Date.now()));
  const envelopes = await envelopesAt(path);
  return { envelopes, pairs: envelopes.map((e) => [e.event, e.data.recipient]).sort() };
}

/** What arrived at `path` with no sweep run: the facts' own announcements after their commits. */
async function announcedTo(path: string, expected: number) {
  const envelopes = (await awaitDeliveries(path, expected)).map((r) => JSON.parse(r.body) as Envelope);
  return { envelopes, pairs: envelopes.map((e) => [e.event, e.data.recipient]).sort() };
}

const named = (envelopes: Envelope[], event: string) => envelopes.filter((e) => e.event === event);

describe("email event webhooks: the events the mail pipeline makes", { timeout: 90_000 }, () => {
  it("tells sent, delivered, delayed and bounced per recipient once: a message twice, a crash before the announcement", async () => {
    const ws = await sendingWorkspace("whk-events.test");
    const hook = await listening(ws);
    const { id } = await heldEmail(
      "whk-events.test",
      ["ada@example.com", "busy@example.test", "nobody@example.test"],
      [],
      ws,
    );
    const now = Date.now();
    await expectRetryAfter(() => deliverEmail(smtpEnv, id, now), 30);
    // The same queue message again: the claim is gone, nothing is written twice.
    expect(await deliverEmail(smtpEnv, id, now)).toEqual({ kind: "skipped" });

    // Called directly, the pipeline announced nothing: the facts and their events are committed and
    // nobody started delivering them, as when a Worker dies right after the commit. The sweep
    // delivers each, once.
    const { envelopes, pairs } = await deliveredTo(hook.path, 4);
    expect(pairs).toEqual([
      ["email.bounced", "nobody@example.test"],
      ["email.delivered", "ada@example.com"],
      ["email.delivery_delayed", "busy@example.test"],
      ["email.sent", null],
    ]);
    const [sent] = named(envelopes, "email.sent");
    expect(Object.keys(sent ?? {})).toEqual(["id", "event", "timestamp", "data"]);
    expect(sent?.data).toEqual({
      email_id: id,
      recipient: null,
      from: "a@whk-events.test",
      subject: "Via smart host",
      tags: [],
      campaign_id: null,
      automation_id: null,
    });
    expect(named(envelopes, "email.delivered")[0]?.data).toMatchObject({
      email_id: id,
      response: expect.stringMatching(/^250 /),
    });
    expect(named(envelopes, "email.delivery_delayed")[0]?.data).toMatchObject({
      response: expect.stringContaining("451"),
    });

    // Each arrived signed with the endpoint's secret and its own id as X-Webhook-Id.
    for (const request of await receivedAt(hook.path)) {
      const [, t, v1] =
        /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request.headers["x-service-signature"] ?? "") ?? [];
      expect(v1).toBe(await hmacHex(hook.secret, `${t}.${request.body}`));
      expect(request.headers["x-webhook-id"]).toBe(JSON.parse(request.body).id);
    }

    // The retry for busy@: deferred again (a second delay), and the email is not sent again.
    const retry = now + 31_000;
    await expectRetryAfter(() => deliverEmail(smtpEnv, id, retry), 60);
    // Its events are stamped with the attempt's own clock, which ran on from `retry`.
    const again = await deliveredTo(hook.path, 5, retry + 60_000);
    expect(again.pairs).toEqual([
      ["email.bounced", "nobody@example.test"],
      ["email.delivered", "ada@example.com"],
      ["email.delivery_delayed", "busy@example.test"],
      ["email.delivery_delayed", "busy@example.test"],
      ["email.sent", null],
    ]);
  });

  it("tells email.failed once when the sweep closes an email its dead sender handed over", async () => {
    const ws = await sendingWorkspace("whk-failed.test");
    const hook = await listening(ws);
    const { id } = await heldEmail("whk-failed.test", ["ada@example.com"], [], ws);
    const claimed = await claimEmail(db(), id, Date.now());
    expect(claimed && (await handOff(db(), claimed, ["ada@example.com"], Date.now()))).toBe(true);
    const later = Date.now() + LEASE_MS + 1000;
    await sweepEmails(db(), env.EMAIL_QUEUE, later);
    await sweepEmails(db(), env.EMAIL_QUEUE, later + 60_000);

    const { envelopes, pairs } = await deliveredTo(hook.path, 1, later + 60_000);
    expect(pairs).toEqual([["email.failed", "ada@example.com"]]);
    expect(envelopes[0]?.data.email_id).toBe(id);
  });

  it("tells the first open per email and the first click per link, each announced at once (no sweep)", async () => {
    const ws = await sendingWorkspace("whk-track.test");
    const hook = await listening(ws);
    const { body } = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: "a@whk-track.test",
        to: "b@example.com",
        subject: "Tracked",
        html: '<p><a href="https://shop.example/one">One</a> <a href="https://shop.example/two">Two</a></p>',
        track_opens: true,
        track_clicks: true,
        tags: [{ name: "kind", value: "receipt" }],
      },
    });
    await eventually(
      async () =>
        (await callJson<{ status: string }>("GET", `/v1/emails/${body.id}`, { token: ws.token })).body
          .status === "sent",
    );
    const raw = await (await call("GET", `/v1/emails/${body.id}/content`, { token: ws.token })).text();
    const html = (await PostalMime.parse(raw)).html ?? "";
    const pixel = new URL(/<img src="([^"]+)"/.exec(html)?.[1] ?? "");
    const links = [...html.matchAll(/<a href="([^"]+)"/g)].map(
      (m) => new URL((m[1] ?? "").replaceAll("&amp;", "&")),
    );
    for (let i = 0; i < 2; i++) expect((await call("GET", pixel.pathname)).status).toBe(200);
    for (const link of [links[0], links[0], links[1]]) {
      expect((await call("GET", `${link?.pathname}${link?.search}`)).status).toBe(302);
    }
    await eventually(async () => {
      const row = await env.DB_2.prepare("SELECT open_count, click_count FROM emails WHERE id = ?")
        .bind(body.id)
        .first<{ open_count: number; click_count: number }>();
      return row?.open_count === 2 && row.click_count === 3;
    });

    // The queue consumer announced sent and delivered, the tracking routes the open and clicks.
    const { envelopes, pairs } = await announcedTo(hook.path, 5);
    expect(pairs).toEqual([
      ["email.clicked", "b@example.com"],
      ["email.clicked", "b@example.com"],
      ["email.delivered", "b@example.com"],
      ["email.opened", "b@example.com"],
      ["email.sent", "b@example.com"],
    ]);
    expect(named(envelopes, "email.clicked").map((e) => e.data.link)).toEqual([
      "https://shop.example/one",
      "https://shop.example/two",
    ]);
    expect(named(envelopes, "email.opened")[0]?.data.tags).toEqual([{ name: "kind", value: "receipt" }]);
  });

  it("tells a complaint and a hard bounce once per recipient, however often they are reported", async () => {
    const ws = await sendingWorkspace("whk-bounce.test");
    const { id } = await heldEmail("whk-bounce.test", ["ada@example.com", "bob@example.com"], [], ws);
    expect(await deliverEmail(smtpEnv, id)).toEqual({ kind: "done", status: "sent" });
    const hook = await listening(ws); // after the send: only the reports' events arrive
    for (let i = 0; i < 2; i++) {
      await recordBounce(db(), {
        accountId: ws.accountId,
        email: "ada@example.com",
        kind: "complaint",
        emailId: id,
        detail: "abuse",
      });
      await recordBounce(db(), {
        accountId: ws.accountId,
        email: "Bob@example.com",
        kind: "hard",
        emailId: id,
        detail: "5.1.1",
      });
    }
    const { pairs } = await deliveredTo(hook.path, 2);
    expect(pairs).toEqual([
      ["email.bounced", "bob@example.com"],
      ["email.complained", "ada@example.com"],
    ]);
  });

  it("tells email.suppressed per refused recipient of a send, with no email id", async () => {
    const ws = await sendingWorkspace("whk-supp.test");
    const hook = await listening(ws);
    await recordBounce(db(), {
      accountId: ws.accountId,
      email: "gone@example.com",
      kind: "hard",
      emailId: null,
      detail: null,
    });
    const refused = await callJson("POST", "/v1/emails", {
      token: ws.token,
      body: { from: "a@whk-supp.test", to: ["gone@example.com", "ok@example.com"], subject: "Hi", text: "x" },
    });
    expect(refused.status).toBe(422);
    const { envelopes, pairs } = await deliveredTo(hook.path, 1);
    expect(pairs).toEqual([["email.suppressed", "gone@example.com"]]);
    expect(envelopes[0]?.data).toEqual({
      email_id: null,
      recipient: "gone@example.com",
      from: "a@whk-supp.test",
      subject: "Hi",
      tags: [],
      campaign_id: null,
      automation_id: null,
    });
  });

  it("names a campaign's email and refusals by campaign, and tells a DSN's delay and hard bounce once", async () => {
    const ws = await campaignWorkspace([{ email: "ada@example.org" }, { email: "gone@example.org" }]);
    const hook = await listening(ws);
    await recordBounce(db(), {
      accountId: ws.accountId,
      email: "gone@example.org",
      kind: "hard",
      emailId: null,
      detail: null,
    });
    const campaign = await createCampaign(ws);
    await act(ws.token, campaign.id, "send");
    await eventually(async () => (await campaignOf(ws.token, campaign.id)).status === "sent");
    const [email] = await emailsOf(campaign.id);
    const id = email?.id ?? "";
    const tags = [{ name: "campaign", value: campaign.id }];

    const sent = await deliveredTo(hook.path, 3);
    expect(sent.envelopes.map((e) => [e.event, e.data]).sort()).toEqual([
      [
        "email.delivered",
        expect.objectContaining({
          email_id: id,
          recipient: "ada@example.org",
          campaign_id: campaign.id,
          tags,
        }),
      ],
      [
        "email.sent",
        expect.objectContaining({
          email_id: id,
          recipient: "ada@example.org",
          campaign_id: campaign.id,
          automation_id: null,
        }),
      ],
      [
        "email.suppressed",
        {
          email_id: null,
          recipient: "gone@example.org",
          from: `Acme News <news@${ws.domain}>`,
          subject: "News for you",
          tags,
          campaign_id: campaign.id,
          automation_id: null,
        },
      ],
    ]);

    // A DSN about ada, received twice: one delay (then a hard bounce) each.
    const reported = { id, accountId: ws.accountId, recipients: ["ada@example.org"] };
    const about = { address: "ada@example.org", status: null, replyCode: null };
    const delayed = { ...about, action: "delayed", diagnostic: "4.4.1 no answer yet", kind: null };
    const failed = { ...about, action: "failed", diagnostic: "5.1.1 no such user", kind: "hard" as const };
    for (const recipient of [delayed, delayed, failed, failed]) {
      await runBatch(db(), reportStatements(reported, [recipient], Date.now()));
    }
    const all = await deliveredTo(hook.path, 5);
    expect(
      all.pairs.filter(([event]) => event === "email.delivery_delayed" || event === "email.bounced"),
    ).toEqual([
      ["email.bounced", "ada@example.org"],
      ["email.delivery_delayed", "ada@example.org"],
    ]);
    expect(named(all.envelopes, "email.delivery_delayed")[0]?.data.response).toBe("4.4.1 no answer yet");
  });

  it("names an automation's email and refusal by automation", async () => {
    const ws = await automationWorkspace();
    const hook = await listening(ws);
    const welcome = await seedContact(ws.accountId, { email: "new@example.org" });
    const gone = await seedContact(ws.accountId, { email: "gone@example.org" });
    await recordBounce(db(), {
      accountId: ws.accountId,
      email: "gone@example.org",
      kind: "hard",
      emailId: null,
      detail: null,
    });
    const automation = await seedAutomation(ws.accountId, [
      {
        id: "stp_mail",
        type: "send_email",
        from: `hello@${ws.domain}`,
        subject: "Hi {{name}}",
        text: "Welcome",
      },
    ]);
    for (const customer of [welcome, gone]) {
      const enrollment = await seedEnrollment(automation, customer.id);
      await using instance = await runEnrollment(enrollment);
      await instance.waitForStatus("complete");
    }
    const { envelopes } = await deliveredTo(hook.path, 3);
    const told = (event: string) =>
      named(envelopes, event).map((e) => [e.data.recipient, e.data.automation_id]);
    expect(told("email.sent")).toEqual([["new@example.org", automation.id]]);
    expect(told("email.suppressed")).toEqual([["gone@example.org", automation.id]]);
    expect(named(envelopes, "email.suppressed")[0]?.data.subject).toBe("Hi Ada Lovelace");
  });

  it("tells nothing of the service's own mail, sent or bounced, beside the workspace's own", async () => {
    const ws = await sendingWorkspace("whk-system.test");
    const hook = await listening(ws);
    const system = systemEmail(
      db(),
      shardEnv(),
      ws.accountId,
      { to: "ada@example.com", subject: "Sign in", text: "secret link", html: "<p>secret link</p>" },
      Date.now(),
    );
    await runBatch(db(), system.statements);
    expect(await deliverEmail(shardEnv(), system.row.id)).toEqual({ kind: "done", status: "sent" });
    await recordBounce(db(), {
      accountId: ws.accountId,
      email: "ada@example.com",
      kind: "hard",
      emailId: system.row.id,
      detail: "5.1.1",
    });
    // The workspace's own email, through the same endpoint: its events are told.
    const own = await heldEmail("whk-system.test", ["bob@example.com"], [], ws);
    expect(await deliverEmail(shardEnv(), own.id)).toEqual({ kind: "done", status: "sent" });

    const { envelopes } = await deliveredTo(hook.path, 2);
    expect(envelopes.map((e) => [e.event, e.data.email_id]).sort()).toEqual([
      ["email.delivered", own.id],
      ["email.sent", own.id],
    ]);
  });

  it("tells contact.unsubscribed once when the one-click post comes twice, announced at once", async () => {
    const ws = await sendingWorkspace("whk-unsub.test");
    const hook = await listening(ws);
    const customerId = await seedCustomer(ws.token, "leaving@example.com");
    const campaignId = await seedCampaign(ws.accountId);
    const token = await tokenFor(customerId, campaignId);
    for (let i = 0; i < 2; i++) expect((await oneClick(token)).status).toBe(200);
    const { envelopes } = await announcedTo(hook.path, 1);
    expect(envelopes.map((e) => [e.event, e.data])).toEqual([
      [
        "contact.unsubscribed",
        {
          contact_id: customerId,
          email: "leaving@example.com",
          method: "one_click",
          campaign_id: campaignId,
          automation_id: null,
        },
      ],
    ]);
  });
});
