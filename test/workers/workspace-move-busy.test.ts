import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { beginMove, type StepReport, stepMove } from "../../src/features/workspace-moves/move.service";
import { call, callJson, directory, eventually, seedInbox, sendingWorkspace } from "./helpers";
import { deliver, FIXTURES, fill } from "./inbound-helpers";
import { MAILER_DAEMON, report, returnPathOf, suppressionsOf } from "./reports-helpers";
import { wholeOn } from "./workspace-move-helpers";

/**
 * A workspace moved while it works (issue 42): emails are sent, mail arrives and opens are counted
 * before, during and after the move, the send queue working in the background all along. Writes in
 * the freeze are refused (503, a temporary SMTP failure) and made again after it, as clients and
 * sending servers do (a bounce report too); opens in the freeze wait in the queue. Nothing is lost
 * or doubled.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Email {
  id: string;
  subject: string;
  status: string;
  opens: { count: number };
}

describe("moving a busy workspace", () => {
  it("loses and doubles nothing while emails go out, mail comes in and opens are counted", {
    timeout: 180_000,
  }, async () => {
    const ws = await sendingWorkspace(`busy-${crypto.randomUUID().slice(0, 8)}.test`);
    const inbox = await seedInbox(ws.accountId);
    const tracked = await callJson<{ id: string }>("POST", "/v1/emails", {
      token: ws.token,
      body: {
        from: `a@${ws.domain}`,
        to: "reader@example.com",
        subject: "Tracked",
        html: "<p>Hi</p>",
        track_opens: true,
      },
    });
    const trackedEmail = await eventually(async () => {
      const { body } = await callJson<Email & { message_id: string }>(
        "GET",
        `/v1/emails/${tracked.body.id}`,
        {
          token: ws.token,
        },
      );
      return body.status === "sent" ? body : null;
    });
    const bounceTo = await returnPathOf(tracked.body.id, "reader@example.com");
    const bounce = report(
      FIXTURES.dsnHard,
      { bounce: bounceTo, messageId: trackedEmail.message_id, domain: ws.domain },
      "reader@example.com",
    );
    let bouncedInFreeze = false;
    const raw = await (
      await call("GET", `/v1/emails/${tracked.body.id}/content`, { token: ws.token })
    ).text();
    const pixel = new URL(/<img src="([^"]+)"/.exec((await PostalMime.parse(raw)).html ?? "")?.[1] ?? "");

    let n = 0;
    let opens = 0;
    const refused = { emails: [] as string[], mail: [] as string[] };
    const sendEmail = (subject: string) =>
      call("POST", "/v1/emails", {
        token: ws.token,
        body: { from: `a@${ws.domain}`, to: ["b@example.com", "c@example.com"], subject, text: "x" },
      });
    const mail = (subject: string) =>
      deliver(fill(FIXTURES.plainText, { TO: inbox.emailAddress }).replace("Printer on fire", subject), {
        to: inbox.emailAddress,
      });
    /** One round of the workspace's traffic: an email out, a mail in, an open. */
    const work = async () => {
      n += 1;
      const subject = `Round ${n}`;
      const sent = await sendEmail(subject);
      if (sent.status === 503) {
        expect(sent.headers.get("Retry-After")).toBe("10");
        refused.emails.push(subject);
      } else expect(sent.status).toBe(200);
      const delivered = await mail(subject);
      if (delivered.outcome === "failed") refused.mail.push(subject);
      else expect(delivered.outcome).toBe("accepted");
      expect((await call("GET", `${pixel.pathname}${pixel.search}`)).status).toBe(200);
      opens += 1;
    };

    for (let i = 0; i < 3; i++) await work();
    // In-flight sends of before the freeze settle within it (production waits 30 s: move.service.ts).
    const settle = { settleMs: 3_000 };
    const reports: StepReport[] = [await beginMove(directory(), env, ws.accountId, "DB", settle)];
    for (let step = 0; step < 10_000; step++) {
      // Traffic at every change of step and every tenth step between (a copy takes many pages).
      if (step % 10 === 0 || reports.at(-1)?.step !== reports.at(-2)?.step) await work();
      const next = await stepMove(directory(), env, ws.accountId, settle);
      reports.push(next);
      if (next.step === "done" || next.step === "aborted") break;
      if (next.step === "copying" && !bouncedInFreeze) {
        // A bounce report in the freeze: a temporary failure, the reporting server tries again.
        expect((await deliver(bounce, { from: MAILER_DAEMON, to: bounceTo })).outcome).toBe("failed");
        bouncedInFreeze = true;
      }
      if (next.wait_ms > 0) await sleep(Math.min(next.wait_ms, 1_000));
    }
    expect(reports.at(-1)?.step).toBe("done");
    expect(n).toBeLessThan(100);
    // The freeze refused some of each; the client and the sending server try again after it.
    expect(refused.emails.length).toBeGreaterThan(0);
    expect(refused.mail.length).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await work();
    for (const subject of refused.emails) expect((await sendEmail(subject)).status).toBe(200);
    for (const subject of refused.mail) expect(await mail(subject)).toEqual({ outcome: "accepted" });
    expect(bouncedInFreeze).toBe(true);
    expect(await deliver(bounce, { from: MAILER_DAEMON, to: bounceTo })).toEqual({ outcome: "accepted" });
    expect(await suppressionsOf(ws.token)).toEqual([
      expect.objectContaining({
        email: "reader@example.com",
        reason: "hard_bounce",
        source_email_id: tracked.body.id,
      }),
    ]);

    const subjects = Array.from({ length: n }, (_, i) => `Round ${i + 1}`);
    // Every email exactly once, and every one sent (queue messages of the freeze come back after it).
    const emails = await eventually(async () => {
      const { body } = await callJson<{ data: Email[] }>("GET", "/v1/emails?limit=100", { token: ws.token });
      // The tracked email bounced (above); every other one is sent.
      return body.data.every((e) => e.status === (e.id === tracked.body.id ? "bounced" : "sent"))
        ? body.data
        : null;
    }, 90_000);
    expect(emails.map((e) => e.subject).sort()).toEqual([...subjects, "Tracked"].sort());
    // Every mail one ticket, once.
    const { body: tickets } = await callJson<{ data: Array<{ subject: string }> }>(
      "GET",
      "/v1/tickets?limit=100",
      {
        token: ws.token,
      },
    );
    expect(tickets.data.map((t) => t.subject).sort()).toEqual([...subjects].sort());
    // Every open counted once, those of the freeze from the queue after it.
    await eventually(async () => {
      const { body } = await callJson<Email>("GET", `/v1/emails/${tracked.body.id}`, { token: ws.token });
      return body.opens.count === opens;
    }, 60_000);
    await wholeOn("DB", "DB_2", ws.accountId);
  });
});
