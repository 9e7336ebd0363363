import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "../../src/db/client";
import { asMergeConflict, mergeStatements } from "../../src/features/tickets/merge";
import type { TicketContext } from "../../src/features/tickets/ticket-context";
import { runGuarded } from "../../src/features/tickets/ticket-version";
import { findTicket } from "../../src/features/tickets/tickets.repo";
import { callJson, seedInbox, seedWorkspace, shardD1Of } from "./helpers";

type Ticket = { id: string; merged_into_id: string | null; message_count: number };

/** Two tickets of one customer in one inbox, each with its first message. */
async function twoTickets() {
  const ws = await seedWorkspace();
  const inbox = await seedInbox(ws.accountId);
  const open = async (subject: string) =>
    (
      await callJson<Ticket>("POST", "/v1/tickets", {
        token: ws.token,
        body: {
          inbox_id: inbox.id,
          customer: { email: "ada@example.com" },
          subject,
          message: { body_text: subject },
        },
      })
    ).body;
  return { ws, a: await open("First"), b: await open("Second") };
}

const merge = (token: string, from: string, into: string) =>
  callJson<Ticket & { code?: string }>("POST", `/v1/tickets/${from}/manage`, {
    token,
    body: { action: "merge", into_ticket_id: into },
  });

const messagesOn = async (ticketId: string) =>
  (
    await shardD1Of()
      .prepare("SELECT count(*) AS n FROM messages WHERE ticket_id = ?")
      .bind(ticketId)
      .first<{ n: number }>()
  )?.n;

describe("merges racing other writes of the same tickets", () => {
  it("of two merges at once, A into B and B into A, one lands and the other is a 409: never a cycle", async () => {
    const { ws, a, b } = await twoTickets();
    const answers = await Promise.all([merge(ws.token, a.id, b.id), merge(ws.token, b.id, a.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const [ta, tb] = await Promise.all(
      [a.id, b.id].map(
        async (id) => (await callJson<Ticket>("GET", `/v1/tickets/${id}`, { token: ws.token })).body,
      ),
    );
    // Exactly one of them points at the other, and the survivor holds both messages, counted once.
    expect([ta?.merged_into_id, tb?.merged_into_id].filter(Boolean)).toHaveLength(1);
    const survivor = ta?.merged_into_id ? tb : ta;
    expect(survivor?.message_count).toBe(2);
    expect(await messagesOn(survivor?.id ?? "")).toBe(2);
  });

  it("the same merge twice at once moves the messages and counts them once", async () => {
    const { ws, a, b } = await twoTickets();
    const answers = await Promise.all([merge(ws.token, a.id, b.id), merge(ws.token, a.id, b.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const survivor = (await callJson<Ticket>("GET", `/v1/tickets/${b.id}`, { token: ws.token })).body;
    expect(survivor.message_count).toBe(2);
    expect(await messagesOn(b.id)).toBe(2);
  });

  it("a message posted while its ticket is merged lands on the survivor's count or is refused: none stays behind", async () => {
    const { ws, a, b } = await twoTickets();
    const [merged, posted] = await Promise.all([
      merge(ws.token, a.id, b.id),
      callJson<{ id: string }>("POST", `/v1/tickets/${a.id}/messages`, {
        token: ws.token,
        body: { type: "note", body_text: "Racing the merge" },
      }),
    ]);
    expect(merged.status === 200 || merged.status === 409).toBe(true);
    expect([201, 409]).toContain(posted.status);
    const ta = (await callJson<Ticket>("GET", `/v1/tickets/${a.id}`, { token: ws.token })).body;
    if (ta.merged_into_id) {
      // The merge landed: nothing is left on the merged ticket, and the survivor counts what it holds.
      expect(await messagesOn(a.id)).toBe(0);
      const tb = (await callJson<Ticket>("GET", `/v1/tickets/${b.id}`, { token: ws.token })).body;
      expect(tb.message_count).toBe(await messagesOn(b.id));
    } else {
      // The message landed first and the merge, which read the ticket before it, was refused.
      expect(merged.status).toBe(409);
      expect(posted.status).toBe(201);
    }
  });
});

describe("a merge that commits between a write's read and its batch", () => {
  it("refuses the write (409 ticket_merged): nothing lands on the merged ticket", async () => {
    const { ws, a, b } = await twoTickets();
    const db = shardD1Of();
    // A note with a file reserves its storage after reading the ticket and before its batch: this
    // trigger merges A into B at that moment, as a merge committing in between would.
    const trigger = `merge_between_${ws.accountId.replace(/\W/g, "_")}`;
    await db
      .prepare(
        `CREATE TRIGGER ${trigger} AFTER UPDATE ON account_usage WHEN NEW.account_id = '${ws.accountId}'
         BEGIN
           UPDATE messages SET ticket_id = '${b.id}' WHERE ticket_id = '${a.id}';
           UPDATE tickets SET merged_into_id = '${b.id}', status = 'closed' WHERE id = '${a.id}';
         END`,
      )
      .run();
    try {
      const posted = await callJson<{ code?: string }>("POST", `/v1/tickets/${a.id}/messages`, {
        token: ws.token,
        body: {
          type: "note",
          body_text: "Written over the merge",
          attachments: [{ filename: "a.txt", content: btoa("hello"), content_type: "text/plain" }],
        },
      });
      expect(posted.status).toBe(409);
      expect(posted.body.code).toBe("ticket_merged");
      expect(await messagesOn(a.id)).toBe(0);
    } finally {
      await db.prepare(`DROP TRIGGER ${trigger}`).run();
    }
  });
});

describe("a merge whose tickets moved between its read and its batch", () => {
  it("merges nothing and answers merge_conflict: B merged into A meanwhile leaves no cycle", async () => {
    const { ws, a, b } = await twoTickets();
    const ctx: TicketContext = {
      db: createDb(shardD1Of()),
      env: env as unknown as TicketContext["env"],
      accountId: ws.accountId,
      now: Date.now(),
    };
    // A into B, read and built now, committed only after B into A has landed.
    const source = (await findTicket(ctx.db, ws.accountId, a.id))?.ticket;
    if (!source) throw new Error("no ticket");
    const stale = await mergeStatements(ctx, source, b.id);
    expect((await merge(ws.token, b.id, a.id)).status).toBe(200);
    const error = await runGuarded(ctx, stale).then(
      () => undefined,
      (e: unknown) => asMergeConflict(e),
    );
    expect(error).toMatchObject({ status: 409, code: "merge_conflict" });
    const ta = (await callJson<Ticket>("GET", `/v1/tickets/${a.id}`, { token: ws.token })).body;
    expect(ta.merged_into_id).toBeNull();
    expect(ta.message_count).toBe(2);
    expect(await messagesOn(a.id)).toBe(2);
  });
});
