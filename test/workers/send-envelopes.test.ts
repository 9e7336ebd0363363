import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type DeliveryOutcome, deliverEmail, deliverEmails } from "../../src/features/emails/deliver";
import { LEASE_MS } from "../../src/features/emails/delivery.repo";
import { UNKNOWN_OUTCOME } from "../../src/features/emails/recover-claims.repo";
import { sweepEmails } from "../../src/jobs/sweep-emails";
import { receivedContaining } from "../support/smtp-test-env";
import { db } from "./helpers";
import { heldEmail, smtpEnv } from "./smtp-env";

/**
 * Each recipient of an email is its own envelope (its own MAIL FROM), handed off before its own
 * final dot and recorded when its server answers: a sender that dies loses only the envelopes at
 * the server, a recipient never begun stays open, spends none of its tries and goes in the next
 * attempt, and one slow recipient holds up no other.
 */

const slowEnv = { ...smtpEnv, SMTP_PORT: String(env.SMTP_TEST.slowPort) };
const distantEnv = { ...smtpEnv, SMTP_PORT: String(env.SMTP_TEST.distantPort) };

const carrying = async (emailId: string, domain: string) =>
  receivedContaining(env.SMTP_TEST.mailboxUrl, `Message-ID: <${emailId}@${domain}>`);

interface RecipientRow {
  address: string;
  state: string;
  attempts: number;
  response: string | null;
}

const recipientsOf = async (emailId: string) =>
  (
    await env.DB_2.prepare(
      `SELECT r.address, r.state, r.attempts, r.response FROM email_recipients r
       JOIN emails e ON e.seq = r.email_seq WHERE e.id = ? ORDER BY r.address`,
    )
      .bind(emailId)
      .all<RecipientRow>()
  ).results;

const statusOf = async (emailId: string) =>
  (await env.DB_2.prepare("SELECT status, attempts FROM emails WHERE id = ?")
    .bind(emailId)
    .first<{ status: string; attempts: number }>()) ?? { status: "", attempts: 0 };

const statesOf = async (emailId: string) => {
  const counts: Record<string, number> = {};
  for (const r of await recipientsOf(emailId)) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return counts;
};

const until = async (check: () => Promise<boolean>, tries = 400) => {
  for (let i = 0; i < tries && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await check()).toBe(true);
};

const release = (address: string) =>
  fetch(`${env.SMTP_TEST.mailboxUrl}?release=${encodeURIComponent(address)}`, { method: "POST" });

/** Every attempt of an email until it is done, each as soon as the last asks (retries of untried ones are due at once). */
async function deliverUntilDone(sendEnv: Env, id: string) {
  const outcomes: DeliveryOutcome[] = [];
  let now = Date.now();
  for (let i = 0; i < 50; i++) {
    const outcome = await deliverEmail(sendEnv, id, now);
    outcomes.push(outcome);
    if (outcome.kind !== "retry") break;
    now = Math.max(Date.now(), now + outcome.delaySeconds * 1000);
  }
  return outcomes;
}

/** `count` recipient addresses at example.com. */
const recipients = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(4, "0")}@example.com`);

describe("each recipient its own hand-off and outcome", () => {
  it("a sender that dies mid-email leaves only its envelopes at the server unknown; the rest go out once", async () => {
    const domain = "envelope-crash.test";
    const held = recipients("held-crash", 5);
    const rest = recipients("later", 3);
    const { id } = await heldEmail(domain, [...held, ...rest]);
    // Five lanes take the five held recipients first; their server answers none of the dots.
    const dying = deliverEmails(smtpEnv, [id]);
    await until(async () => (await statesOf(id)).sending === 5);
    expect(await statesOf(id)).toEqual({ sending: 5, pending: 3 });

    // The sender is presumed dead: its lease runs out and the sweep takes the email back.
    const later = Date.now() + LEASE_MS + 1000;
    await sweepEmails(db(), env.EMAIL_QUEUE, later);
    expect(await statusOf(id)).toMatchObject({ status: "queued" });
    expect(await statesOf(id)).toEqual({ unknown: 5, pending: 3 });

    // The next attempt sends the three never begun, once each.
    expect(await deliverEmail(smtpEnv, id, later)).toEqual({ kind: "done", status: "sent" });
    // The old sender wakes: its dots are answered, and it writes nothing and begins nothing more.
    for (const address of held) expect((await release(address)).status).toBe(204);
    expect(await dying).toEqual([{ kind: "skipped" }]);

    const rows = await recipientsOf(id);
    expect(rows.filter((r) => r.state === "unknown").map((r) => r.address)).toEqual(held);
    expect(rows.filter((r) => r.state === "unknown").every((r) => r.response === UNKNOWN_OUTCOME)).toBe(true);
    expect(rows.filter((r) => r.state === "accepted").map((r) => r.address)).toEqual(rest);
    // The server got each of the eight exactly once: nobody twice, nobody lost.
    const got = (await carrying(id, domain)).flatMap((m) => m.to).sort();
    expect(got).toEqual([...held, ...rest].sort());
    expect(await statusOf(id)).toMatchObject({ status: "sent" });
  });

  it("a slow recipient holds up only its own lane: the others are recorded while it waits", async () => {
    const domain = "envelope-slow-one.test";
    const slow = "held-slow-one@example.com";
    const others = recipients("quick", 9);
    const { id } = await heldEmail(domain, [slow, ...others]);
    const delivering = deliverEmails(smtpEnv, [id]);
    // Each answer is written as it comes, not when the attempt ends.
    await until(async () => (await statesOf(id)).accepted === 9);
    expect(await statesOf(id)).toEqual({ accepted: 9, sending: 1 });
    expect(await statusOf(id)).toMatchObject({ status: "sending" });
    expect((await release(slow)).status).toBe(204);
    expect(await delivering).toEqual([{ kind: "done", status: "sent" }]);
    expect(await statesOf(id)).toEqual({ accepted: 10 });
    expect((await carrying(id, domain)).length).toBe(10);
  });

  it("recipients the attempt's time did not reach stay pending, spend no try, and go in the next attempt", async () => {
    const domain = "envelope-window.test";
    const to = recipients("window", 50);
    const { id } = await heldEmail(domain, to);
    // Against a server that takes 150 ms for each answer, an attempt that may begin envelopes for
    // 3 s (production's is 50 s) reaches some of the fifty.
    const shortWindow = { ...slowEnv, SMTP_SEND_WINDOW_SECONDS: "3" };
    expect(await deliverEmail(shortWindow, id)).toEqual({ kind: "retry", delaySeconds: 0 });
    const afterFirst = await recipientsOf(id);
    const begun = afterFirst.filter((r) => r.state === "accepted");
    const notBegun = afterFirst.filter((r) => r.state === "pending");
    expect(begun.length).toBeGreaterThan(0);
    expect(notBegun.length).toBeGreaterThan(0);
    expect(begun.length + notBegun.length).toBe(50);
    expect(notBegun.every((r) => r.attempts === 0 && r.response === null)).toBe(true);
    expect(await statusOf(id)).toMatchObject({ status: "queued" });

    const outcomes = await deliverUntilDone(shortWindow, id);
    expect(outcomes.at(-1)).toEqual({ kind: "done", status: "sent" });
    const rows = await recipientsOf(id);
    expect(rows.every((r) => r.state === "accepted" && r.attempts === 1)).toBe(true);
    expect((await carrying(id, domain)).flatMap((m) => m.to).sort()).toEqual(to);
  });

  it("1,000 recipients against a server a network away all get their transaction, each once", {
    timeout: 180_000,
  }, async () => {
    const domain = "envelope-thousand.test";
    const to = recipients("many", 1_000);
    const { id } = await heldEmail(domain, to);
    const outcomes = await deliverUntilDone(distantEnv, id);
    expect(outcomes.at(-1)).toEqual({ kind: "done", status: "sent" });
    expect(await statesOf(id)).toEqual({ accepted: 1_000 });
    const got = (await carrying(id, domain)).flatMap((m) => m.to).sort();
    expect(got).toEqual(to);
  });
});
