import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deliver, droppedOf, FIXTURES, fill, inboundWorkspace, ticketsOf } from "./inbound-helpers";
import { MAILER_DAEMON, reportsOf } from "./reports-helpers";

/**
 * A real D1 failure: a table the handler writes is renamed away inside this file's own isolated
 * storage (each test file has its own database), so its statements fail exactly as they would if
 * D1 were unavailable, and renamed back to show that the sender's retry then succeeds.
 */
async function withoutTable<T>(table: string, work: () => Promise<T>): Promise<T> {
  await env.DB_2.exec(`ALTER TABLE ${table} RENAME TO ${table}_parked`);
  try {
    return await work();
  } finally {
    await env.DB_2.exec(`ALTER TABLE ${table}_parked RENAME TO ${table}`);
  }
}

const rawObjectsOf = async (accountId: string) =>
  (await env.FILES.list({ prefix: `inbound/${accountId}/` })).objects.map((o) => o.key);

describe("a failure of ours", () => {
  it("throws, so the sending server retries later; nothing half-stored, and the retry succeeds", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.plainText, { TO: inbox.emailAddress });

    const failed = await withoutTable("events", () => deliver(raw, { to: inbox.emailAddress }));
    expect(failed.outcome).toBe("failed");
    expect(failed.error).toContain("no such table: events");
    expect(await ticketsOf(ws.token)).toEqual([]);
    expect(await rawObjectsOf(ws.accountId)).toEqual([]);

    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect((await ticketsOf(ws.token)).map((t) => t.subject)).toEqual(["Printer on fire"]);
    expect((await rawObjectsOf(ws.accountId)).length).toBe(1);
  });

  it("throws when a drop cannot be recorded either: even unreadable mail is never lost silently", async () => {
    const { ws, inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.nested, { TO: inbox.emailAddress });
    const failed = await withoutTable("dropped_mail", () => deliver(raw, { to: inbox.emailAddress }));
    expect(failed.outcome).toBe("failed");
    expect(await rawObjectsOf(ws.accountId)).toEqual([]);

    expect(await deliver(raw, { to: inbox.emailAddress })).toEqual({ outcome: "accepted" });
    expect((await droppedOf(ws.accountId)).map((d) => d.reason)).toEqual(["parse_failed"]);
  });

  it("throws for a report too, though a report the message makes unreadable is recorded (inbound-malformed.test.ts)", async () => {
    const { inbox } = await inboundWorkspace();
    const raw = fill(FIXTURES.dsnHard, {
      BOUNCE: inbox.emailAddress,
      RECIPIENT: "gone@example.net",
      SENDER: "hello@acme.test",
      ORIGINAL_ID: "<not-ours@elsewhere.example>",
    });
    const failed = await withoutTable("mail_reports", () =>
      deliver(raw, { from: MAILER_DAEMON, to: inbox.emailAddress }),
    );
    expect(failed.outcome).toBe("failed");
    expect(failed.error).toContain("no such table: mail_reports");

    expect(await deliver(raw, { from: MAILER_DAEMON, to: inbox.emailAddress })).toEqual({
      outcome: "accepted",
    });
    expect((await reportsOf({ rcptTo: inbox.emailAddress })).map((r) => r.outcome)).toEqual(["unmatched"]);
  });
});
