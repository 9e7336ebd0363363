import { describe, expect, it } from "vitest";
import { countingD1 } from "../../src/db/counting-d1";
import { type After, pageOf, type Row } from "../../src/features/workspace-moves/pages";
import { checkedPasses } from "../../src/features/workspace-moves/tables";
import { tallyAll } from "../../src/features/workspace-moves/verify";
import { callJson, sendingWorkspace, shardD1Of } from "./helpers";

/**
 * How a move reads a workspace's rows: every page of a table is one round trip to the shard (a
 * child table's page reads its parents and their rows in one batch), the pages of a walk hold each
 * row once, and a tally of every table reads all first pages in one batch.
 */

/** The shard's database, counting its round trips. */
function counted() {
  let trips = 0;
  const d1 = countingD1(shardD1Of(), () => {
    trips++;
  });
  return { d1, trips: () => trips };
}

/** Sends `count` emails, two recipients each, in batches of 50 (more parents than one page holds). */
async function workspaceWithEmails(count: number) {
  const ws = await sendingWorkspace("pages.test");
  for (let start = 0; start < count; start += 50) {
    const body = Array.from({ length: Math.min(50, count - start) }, (_, i) => ({
      from: `a@${ws.domain}`,
      to: [`r${start + i}@example.com`, "both@example.com"],
      subject: `Hello ${start + i}`,
      text: "x",
    }));
    const { status } = await callJson("POST", "/v1/emails/batch", { token: ws.token, body });
    expect(status).toBe(200);
  }
  return ws;
}

const countOf = async (sql: string, accountId: string) =>
  (await shardD1Of().prepare(sql).bind(accountId).first<{ n: number }>())?.n;

describe("a move's pages", { timeout: 60_000 }, () => {
  it("reads a child table's page in one round trip, and its walk holds every row once", async () => {
    const ws = await workspaceWithEmails(60);
    const pass = checkedPasses().find((p) => p.table === "email_recipients");
    if (!pass) throw new Error("email_recipients is not moved");
    const { d1, trips } = counted();
    const rows: Row[] = [];
    let pages = 0;
    let after: After = null;
    do {
      const before = trips();
      const page = await pageOf(d1, pass, ws.accountId, after);
      expect(trips() - before).toBe(1);
      rows.push(...page.rows);
      after = page.next;
      pages++;
    } while (after !== null);
    // 60 emails are two pages of parents (50 a page), each with both recipients of its emails.
    expect(pages).toBe(2);
    const expected = await countOf(
      "SELECT count(*) AS n FROM email_recipients r JOIN emails e ON e.seq = r.email_seq WHERE e.account_id = ?",
      ws.accountId,
    );
    expect(expected).toBe(120);
    const keys = new Set(rows.map((r) => `${r.email_seq}:${r.address}`));
    expect({ rows: rows.length, distinct: keys.size }).toEqual({ rows: 120, distinct: 120 });
  });

  it("tallies every table with all first pages in one round trip, and further pages after", async () => {
    const small = await sendingWorkspace("pages.test");
    const one = counted();
    const tallies = await tallyAll(one.d1, small.accountId);
    expect(one.trips()).toBe(1);
    expect(Object.keys(tallies)).toEqual(checkedPasses().map((p) => p.table));
    expect(tallies.accounts?.count).toBe(1);

    // 60 emails: the emails table takes three pages (25 a page), its child tables two (50 parents a
    // page), and every count is the table's own.
    const ws = await workspaceWithEmails(60);
    const many = counted();
    const big = await tallyAll(many.d1, ws.accountId);
    expect(big.emails?.count).toBe(60);
    expect(big.email_recipients?.count).toBe(120);
    expect(big.email_events?.count).toBe(
      await countOf(
        "SELECT count(*) AS n FROM email_events v JOIN emails e ON e.seq = v.email_seq WHERE e.account_id = ?",
        ws.accountId,
      ),
    );
    // The first pages together, then the emails' second and third pages and the second page of
    // each of their three child tables (recipients, tags, events).
    expect(many.trips()).toBe(1 + 2 + 3);
  });
});
