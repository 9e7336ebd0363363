import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliverEmails } from "../../src/features/emails/deliver";
import { SmtpSession } from "../../src/mail/transports/smtp/client";
import { MAX_SESSIONS } from "../../src/mail/transports/smtp/session-pool";
import { receivedContaining, SMTP_TEST_USER } from "../support/smtp-test-env";
import { sendingWorkspace, shardEnv } from "./helpers";
import { heldEmail, smtpEnv } from "./smtp-env";

/** The messages the SMTP fixtures accepted that carry `marker`. */
const carrying = (marker: string) => receivedContaining(env.SMTP_TEST.mailboxUrl, marker);

const emailRow = (id: string) =>
  env.DB_2.prepare("SELECT status, attempts, handoff_attempt FROM emails WHERE id = ?")
    .bind(id)
    .first<{ status: string; attempts: number; handoff_attempt: number | null }>();

/** A bucket whose puts under `prefix` wait until `release` is called. */
function heldPuts(bucket: R2Bucket, prefix: string) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const files = new Proxy(bucket, {
    get(target, property) {
      if (property === "put") {
        return async (key: string, ...rest: unknown[]) => {
          if (key.startsWith(prefix)) await gate;
          return (target.put as (...args: unknown[]) => unknown)(key, ...rest);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { files, release };
}

const until = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe("handing an email to the transport", () => {
  it("asks for the hand-off only before the final dot: a message held back there reaches nobody", async () => {
    const session = await SmtpSession.open({
      host: "localhost",
      port: env.SMTP_TEST.submissionPort,
      security: "starttls",
      auth: SMTP_TEST_USER,
      heloName: "worker.test",
    });
    const message = (marker: string) =>
      `From: a@example.test\r\nTo: b@example.test\r\nMessage-ID: <${marker}@example.test>\r\nSubject: x\r\n\r\nBody ${marker}\r\n`;
    const envelope = { from: "a@example.test", to: ["b@example.test"] };
    const seenAtHandOff: number[] = [];
    const kept = await session.send([envelope], message("handoff-kept"), {
      beforeCommit: async () => {
        seenAtHandOff.push((await carrying("handoff-kept")).length);
        return true;
      },
    });
    expect(kept.withheld).toBe(false);
    expect(kept.results[0]).toMatchObject({ ok: true, code: 250 });
    // The data was all written, but without its dot the server had not taken the message yet.
    expect(seenAtHandOff).toEqual([0]);
    expect(await carrying("handoff-kept")).toHaveLength(1);

    const dropped = await session.send([envelope], message("handoff-dropped"), {
      beforeCommit: async () => false,
    });
    expect(dropped.withheld).toBe(true);
    expect(session.broken).toBe(true);
    await session.end();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await carrying("handoff-dropped")).toHaveLength(0);
  });

  it("records each email the moment its transport answers: a slow one holds back no other", async () => {
    const ws = await sendingWorkspace("prompt.test");
    const ids: string[] = [];
    // The fixture answers the dot of a message to a held- recipient only when the test says so.
    for (const to of ["fast1@example.com", "fast2@example.com", "held-slow@example.com"]) {
      ids.push((await heldEmail("prompt.test", [to], [], ws)).id);
    }
    const slowId = ids[2] as string;
    const delivering = deliverEmails(smtpEnv, ids);
    const statuses = async () => (await Promise.all(ids.map(emailRow))).map((row) => row?.status);
    await until(async () => (await statuses()).slice(0, 2).every((s) => s === "sent"));
    // The fast two are recorded sent while the slow one's server still holds its answer...
    expect(await statuses()).toEqual(["sent", "sent", "sending"]);
    // ...and the slow one is marked handed off: a crash now would close it, not send it again. The
    // three go in parallel, so on a busy machine its mark may land just after the fast two finish.
    await until(async () => (await emailRow(slowId))?.handoff_attempt === 1);
    expect(await emailRow(slowId)).toMatchObject({ status: "sending", attempts: 1, handoff_attempt: 1 });
    const released = await fetch(`${env.SMTP_TEST.mailboxUrl}?release=held-slow@example.com`, {
      method: "POST",
    });
    expect(released.status).toBe(204);
    expect(await delivering).toEqual([
      { kind: "done", status: "sent" },
      { kind: "done", status: "sent" },
      { kind: "done", status: "sent" },
    ]);
  });

  it("an email that has not reached its transport is not marked handed off, so a crash sends it again", async () => {
    const { id } = await heldEmail("unhanded.test", ["ada@example.com"]);
    // Building stores the message first: hold that put, before any hand-off.
    const { files, release } = heldPuts(env.FILES, `emails/${id}/`);
    const delivering = deliverEmails({ ...shardEnv(), EMAIL_TRANSPORT: "capture", FILES: files }, [id]);
    await until(async () => (await emailRow(id))?.status === "sending");
    expect(await emailRow(id)).toMatchObject({ status: "sending", handoff_attempt: null });
    release();
    expect(await delivering).toEqual([{ kind: "done", status: "sent" }]);
  });

  it(`sends a batch over at most ${MAX_SESSIONS} SMTP sessions, several messages each, every one once`, async () => {
    const ws = await sendingWorkspace("pooled.test");
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await heldEmail("pooled.test", [`p${i}@example.com`], [], ws)).id);
    const outcomes = await deliverEmails(smtpEnv, ids);
    expect(outcomes.every((o) => o.kind === "done" && o.status === "sent")).toBe(true);
    const received = (await carrying("@pooled.test>")).filter((m) =>
      ids.some((id) => m.raw.includes(`<${id}@pooled.test>`)),
    );
    expect(received).toHaveLength(12);
    const sessions = new Set(received.map((m) => m.session));
    expect(sessions.size).toBeGreaterThan(0);
    expect(sessions.size).toBeLessThanOrEqual(MAX_SESSIONS);
  });
});
