import { describe, expect, it } from "vitest";
import { countingD1 } from "../../src/db/counting-d1";
import { type After, pageOf, pageRead, type Row } from "../../src/features/workspace-moves/pages";
import { checkedPasses, type MovedTable, walkColumnsOf } from "../../src/features/workspace-moves/tables";
import { tallyAll } from "../../src/features/workspace-moves/verify";
import { callJson, seedWorkspace, sendingWorkspace, shardD1Of } from "./helpers";

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

  it("reads every table along an index, never sorting the workspace's rows for a page", async () => {
    const rowidWalked = new Set<string>();
    const sorted: string[] = [];
    for (const pass of checkedPasses()) {
      for (const after of [null, cursorOf(pass)]) {
        for (const [i, { sql, bound }] of statementsOf(pass, after).entries()) {
          const plan = await planOfSql(sql, bound);
          // A child page's rows (at most its parents') may be ordered within each parent; the walk never sorts.
          const sorts = plan.filter((line) => line.includes("USE TEMP B-TREE"));
          const withinParents = pass.rows.by === "parent" && i === 1;
          if (sorts.some((line) => !withinParents || !line.includes("LAST TERM OF ORDER BY")))
            sorted.push(`${pass.table}: ${plan.join("; ")}`);
          // The walk (`t`: the table, or a child table's parents) along an index, or else the
          // rowid; a child table's rows (`c`) by their foreign key's index.
          const walked = plan.filter((line) => /^(SCAN|SEARCH) t\b/.test(line));
          const walkedTable = pass.rows.by === "parent" ? pass.rows.parent : pass.table;
          for (const line of walked) if (!/USING (COVERING )?INDEX/.test(line)) rowidWalked.add(walkedTable);
          const children = plan.filter((line) => /^(SCAN|SEARCH) c\b/.test(line));
          for (const line of children) expect(line, `${pass.table}: ${sql}`).toMatch(/^SEARCH c USING/);
        }
      }
    }
    expect(sorted).toEqual([]);
    expect([...rowidWalked].sort()).toEqual(ROWID_WALKED);
  });

  it("walks a key with ties (many rows of one time) across pages, each row once and in order", async () => {
    const ws = await seedWorkspace();
    const rows = Array.from({ length: 450 }, (_, i) => ({ email: `b${i}@example.com`, at: 1_000 + (i % 3) }));
    await shardD1Of()
      .prepare(
        `INSERT INTO bounces (account_id, email, kind, created_at)
         SELECT ?1, j.value ->> 'email', 'hard', j.value ->> 'at' FROM json_each(?2) AS j`,
      )
      .bind(ws.accountId, JSON.stringify(rows))
      .run();
    const pass = checkedPasses().find((p) => p.table === "bounces") as MovedTable;
    expect(walkColumnsOf("bounces")).toEqual(["created_at"]);
    const read: Row[] = [];
    let after: After = null;
    let pages = 0;
    do {
      const page = await pageOf(shardD1Of(), pass, ws.accountId, after);
      read.push(...page.rows);
      after = page.next;
      pages++;
    } while (after !== null);
    expect(pages).toBe(3);
    expect(new Set(read.map((r) => r.id)).size).toBe(450);
    const order = read.map((r) => [r.created_at as number, r.id as number]);
    expect(order).toEqual(
      [...order].sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number)),
    );

    // A cursor written before walks followed the index (one rowid) goes on along the rowid.
    const ids = read.map((r) => r.id as number).sort((a, b) => a - b);
    const middle = ids[299] as number;
    const legacy = await pageOf(shardD1Of(), pass, ws.accountId, [middle]);
    expect(legacy.rows.map((r) => r.id)).toEqual(ids.slice(300));
    expect(legacy.next).toBeNull();
  });
});

/**
 * The tables with no key by workspace (`walkColumnsOf` answers null: no index leads with
 * account_id, or only a partial or nullable one): read along the rowid, every workspace's rows
 * after the cursor, so a move of one workspace reads the whole table once, not once a page.
 */
const ROWID_WALKED = [
  "automation_enrollments",
  "campaign_recipients",
  "contact_group_members",
  "email_webhook_outbox",
  "enrollment_steps",
  "login_tokens",
  "message_attachments",
  "messages",
  "sessions",
  "sla_policy_inboxes",
  "survey_requests",
  "survey_responses",
  "ticket_tags",
];

/** A cursor of the right length for the table's walk (or its parents' walk): its values do not matter to a plan. */
function cursorOf(pass: MovedTable): After {
  const walked = pass.rows.by === "parent" ? pass.rows.parent : pass.table;
  const length =
    walked === "emails" ? 2 : walked === "accounts" ? 1 : (walkColumnsOf(walked)?.length ?? 0) + 1;
  return Array.from({ length }, () => 0);
}

/** The SQL and bindings of a page's statements, from a D1 that records them and runs nothing. */
function statementsOf(pass: MovedTable, after: After): Array<{ sql: string; bound: unknown[] }> {
  const recording = {
    prepare: (sql: string) => ({ bind: (...bound: unknown[]) => ({ sql, bound }) }),
  } as unknown as D1Database;
  const page = pageRead(recording, pass, "acc_plan", after);
  return page.statements as unknown as Array<{ sql: string; bound: unknown[] }>;
}

async function planOfSql(sql: string, bound: unknown[]): Promise<string[]> {
  const { results } = await shardD1Of()
    .prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...bound)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}
