import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmail } from "../../src/features/emails/deliver";
import { claimEmail, handOff, LEASE_MS } from "../../src/features/emails/delivery.repo";
import { UNKNOWN_OUTCOME } from "../../src/features/emails/recover-claims.repo";
import { sweepEmails } from "../../src/jobs/sweep-emails";
import { receivedContaining } from "../support/smtp-test-env";
import { callJson, db, expectRetryAfter } from "./helpers";
import { heldEmail, smtpEnv } from "./smtp-env";

const received = async (emailId: string, domain: string) =>
  receivedContaining(env.SMTP_TEST.mailboxUrl, `Message-ID: <${emailId}@${domain}>`);

const emailOf = (token: string, id: string) =>
  callJson<Record<string, unknown>>("GET", `/v1/emails/${id}`, { token }).then((r) => r.body);

const suppressionsOf = (token: string) =>
  callJson<{ data: Array<{ email: string; reason: string }> }>("GET", "/v1/emails/suppressions", {
    token,
  }).then((r) => r.body.data);

const softBounces = async (accountId: string, address: string) =>
  (
    await env.DB_2.prepare(
      "SELECT count(*) AS n FROM bounces WHERE account_id = ? AND email = ? AND kind = 'soft'",
    )
      .bind(accountId, address)
      .first<{ n: number }>()
  )?.n;

/** The workspace's email report totals from today through tomorrow (a test's `later` may pass midnight). */
async function reportTotals(token: string) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const res = await callJson<{ totals: Record<string, number | null> }>(
    "GET",
    `/v1/reports/email?from=${day(0)}&to=${day(2)}`,
    { token },
  );
  expect(res.status).toBe(200);
  return res.body.totals;
}

/** Runs every attempt of an email from `start` until it is done, each after its pause. */
async function retryUntilDone(id: string, start = Date.now()) {
  let now = start;
  let outcome = await deliverEmail(smtpEnv, id, now);
  while (outcome.kind === "retry") {
    now += 3_600_000;
    outcome = await deliverEmail(smtpEnv, id, now);
  }
  return outcome;
}

/** A real bucket that fails its next `put`s, as R2 does on a bad day. */
function failingPuts(bucket: R2Bucket, failures: number): R2Bucket {
  let left = failures;
  return new Proxy(bucket, {
    get(target, property) {
      if (property === "put" && left > 0) {
        return () => {
          left--;
          return Promise.reject(new Error("R2 unavailable"));
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("temporary refusals (4xx)", () => {
  it("retries only the deferred recipient when others were accepted, and sends nobody twice", async () => {
    const { ws, id } = await heldEmail("partial.test", ["ada@example.com", "busy@example.test"]);
    await expectRetryAfter(() => deliverEmail(smtpEnv, id), 30);
    expect(await emailOf(ws.token, id)).toMatchObject({
      status: "queued",
      last_event: "deferred",
      recipients: [
        { address: "ada@example.com", status: "accepted", response: expect.stringMatching(/^250 /) },
        { address: "busy@example.test", status: "deferred", response: expect.stringContaining("451") },
      ],
    });
    const first = await received(id, "partial.test");
    expect(first.map((m) => m.to)).toEqual([["ada@example.com"]]);

    // busy@ keeps deferring: every later attempt goes to it alone.
    expect(await retryUntilDone(id, Date.now() + 31_000)).toEqual({ kind: "done", status: "sent" });
    expect((await received(id, "partial.test")).map((m) => m.to)).toEqual([["ada@example.com"]]);
    // Each recipient keeps the answer it was given, though the email's last one changed since
    // (a recipient shares its email's answer instead of a copy until then: migration 0032).
    // busy@ was deferred on each of its six tries: it failed, and says so rather than staying deferred.
    expect(await emailOf(ws.token, id)).toMatchObject({
      status: "sent",
      attempts: 6,
      last_response: expect.stringContaining("451"),
      recipients: [
        { address: "ada@example.com", status: "accepted", response: expect.stringMatching(/^250 /) },
        { address: "busy@example.test", status: "failed", response: expect.stringContaining("451") },
      ],
    });
    // So does each attempt's event: the first one's answer was the 250 that reached ada@.
    const events = await env.DB_2.prepare(
      `SELECT v.type, coalesce(v.detail, CASE WHEN v.type IN ('sent', 'deferred', 'failed') THEN e.last_response END) AS answer
       FROM email_events v JOIN emails e ON e.seq = v.email_seq WHERE e.id = ? ORDER BY v.id`,
    )
      .bind(id)
      .all<{ type: string; answer: string }>();
    expect(events.results.map((v) => [v.type, v.answer.slice(0, 3)])).toEqual([
      ["deferred", "250"],
      ...Array.from({ length: 4 }, () => ["deferred", "451"]),
      ["sent", "451"],
    ]);
  });

  it("counts one soft bounce per email and recipient, so a greylisting host suppresses nobody by itself", async () => {
    const { ws, id } = await heldEmail("greylist.test", ["busy@example.test"]);
    expect(await retryUntilDone(id)).toEqual({ kind: "done", status: "failed" });
    expect(await softBounces(ws.accountId, "busy@example.test")).toBe(1);
    expect(await suppressionsOf(ws.token)).toEqual([]);

    // Three different emails deferred within 7 days: now the address is suppressed.
    for (let i = 0; i < 2; i++) {
      const next = await heldEmail("greylist.test", ["busy@example.test"], [], ws);
      await retryUntilDone(next.id);
    }
    expect(await softBounces(ws.accountId, "busy@example.test")).toBe(3);
    expect(await suppressionsOf(ws.token)).toEqual([
      expect.objectContaining({ email: "busy@example.test", reason: "soft_bounces" }),
    ]);
  });
});

describe("an email stuck in sending", () => {
  it("goes back to the queue when its sender died before handing it over, and is sent once", async () => {
    const { ws, id } = await heldEmail("lost.test", ["ada@example.com"]);
    // A sender claims it and dies (nothing after the claim runs).
    expect(await claimEmail(db(), id, Date.now())).not.toBeNull();
    await sweepEmails(db(), env.EMAIL_QUEUE, Date.now());
    expect(await emailOf(ws.token, id)).toMatchObject({ status: "sending" });

    const later = Date.now() + LEASE_MS + 1000;
    await sweepEmails(db(), env.EMAIL_QUEUE, later);
    expect(await emailOf(ws.token, id)).toMatchObject({ status: "queued" });
    expect(await deliverEmail(smtpEnv, id, later)).toEqual({ kind: "done", status: "sent" });
    expect(await deliverEmail(smtpEnv, id, later)).toEqual({ kind: "skipped" });
    expect((await received(id, "lost.test")).length).toBe(1);
    // The report too: the dead sender's claim and the redelivered attempt counted nothing more.
    expect(await reportTotals(ws.token)).toMatchObject({ accepted: 1, sent: 1, delivered: 1, failed: 0 });
  });

  it("is closed, never sent again, when its sender died after handing it to the transport", async () => {
    const { ws, id } = await heldEmail("handed.test", ["ada@example.com"]);
    const claimed = await claimEmail(db(), id, Date.now());
    expect(claimed && (await handOff(db(), claimed, ["ada@example.com"], Date.now()))).toBe(true);

    const later = Date.now() + LEASE_MS + 1000;
    await sweepEmails(db(), env.EMAIL_QUEUE, later);
    expect(await emailOf(ws.token, id)).toMatchObject({ status: "failed", last_response: UNKNOWN_OUTCOME });
    expect(await deliverEmail(smtpEnv, id, later + 3_600_000)).toEqual({ kind: "skipped" });
    expect(await received(id, "handed.test")).toEqual([]);
    // Handed off once (sent), closed unsent by the sweep (failed), delivered never.
    expect(await reportTotals(ws.token)).toMatchObject({ accepted: 1, sent: 1, delivered: 0, failed: 1 });
  });

  it("is given back at once when R2 fails, and goes out on the next try", async () => {
    const { ws, id } = await heldEmail("r2down.test", ["ada@example.com"]);
    const outcome = await deliverEmail({ ...smtpEnv, FILES: failingPuts(env.FILES, 1) }, id);
    expect(outcome).toEqual({ kind: "retry", delaySeconds: 30 });
    expect(await emailOf(ws.token, id)).toMatchObject({ status: "queued" });
    expect(await deliverEmail(smtpEnv, id, Date.now() + 31_000)).toEqual({ kind: "done", status: "sent" });
    expect((await received(id, "r2down.test")).length).toBe(1);
  });

  it("loses a claim that ran out while building: the sender that took it over sends, the old one does not", async () => {
    const { id } = await heldEmail("slow.test", ["ada@example.com"]);
    const stale = await claimEmail(db(), id, Date.now());
    const later = Date.now() + LEASE_MS + 1000;
    await sweepEmails(db(), env.EMAIL_QUEUE, later);
    const current = await claimEmail(db(), id, later);
    expect(stale && (await handOff(db(), stale, ["ada@example.com"], later))).toBe(false);
    expect(current && (await handOff(db(), current, ["ada@example.com"], later))).toBe(true);
  });
});
