import { env } from "cloudflare:workers";
import { and, eq, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { emails } from "../../src/db/schema";
import { db } from "./helpers";
import { planOf } from "./query-plan";

/**
 * SQLite finds the child rows of a foreign key by its child columns on every delete of a parent
 * (to cascade, set null, or refuse): without an index leading with them, deleting one webhook
 * endpoint, inbox or connection reads the whole child table, every workspace's rows. So every
 * foreign key of the migrated schema needs one, and this reads SQLite's own plan to prove it.
 */

interface ForeignKey {
  table: string;
  parent: string;
  columns: string[];
}

/** Tables of the schema, without SQLite's, D1's and Cloudflare's own. */
async function tablesOf(database: D1Database): Promise<string[]> {
  const rows = await database
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%' ORDER BY name",
    )
    .all<{ name: string }>();
  return rows.results.map((row) => row.name);
}

/** Each foreign key of `table`, its columns in order (a key on several columns has one row each). */
async function foreignKeysOf(database: D1Database, table: string): Promise<ForeignKey[]> {
  const rows = await database
    .prepare(`PRAGMA foreign_key_list("${table}")`)
    .all<{ id: number; seq: number; table: string; from: string }>();
  const byId = new Map<number, ForeignKey>();
  for (const row of [...rows.results].sort((a, b) => a.id - b.id || a.seq - b.seq)) {
    const key = byId.get(row.id) ?? { table, parent: row.table, columns: [] };
    key.columns.push(row.from);
    byId.set(row.id, key);
  }
  return [...byId.values()];
}

async function foreignKeys(database: D1Database): Promise<ForeignKey[]> {
  const tables = await tablesOf(database);
  return (await Promise.all(tables.map((table) => foreignKeysOf(database, table)))).flat();
}

/** The plan of the lookup SQLite runs for a parent's delete: the child rows by the key's columns. */
async function childLookupPlan(database: D1Database, key: ForeignKey): Promise<string> {
  const where = key.columns.map((column) => `"${column}" = ?`).join(" AND ");
  const rows = await database
    .prepare(`EXPLAIN QUERY PLAN SELECT 1 FROM "${key.table}" WHERE ${where}`)
    .bind(...key.columns.map(() => "x"))
    .all<{ detail: string }>();
  return rows.results.map((row) => row.detail).join("\n");
}

const named = (key: ForeignKey) => `${key.table}(${key.columns.join(", ")}) -> ${key.parent}`;

/**
 * The one key left without an index, and why. No route or job deletes a workspace (an `accounts`
 * row), so this cascade runs only when an operator deletes one by hand, once per workspace. An
 * index leading with `emails.account_id` would cost about 38 bytes on every email, the largest
 * table, and worse, SQLite without statistics (as a migration leaves a table) would then prefer it
 * to the indexes of the Message-ID lookup every bounce report makes, reading all of a workspace's
 * emails for each report (the last test below holds that plan).
 */
const LEFT_UNINDEXED = ["emails(account_id) -> accounts"];

/** A full read of the child table, or an index walked end to end because it does not lead with the key. */
const isScan = (plan: string) => /^SCAN /m.test(plan);

describe("every foreign key has an index on its child columns", () => {
  it.each([
    ["DB", () => env.DB],
    ["LOGS", () => env.LOGS],
  ])("in %s: the child rows of a parent are searched, never scanned", async (_name, database) => {
    const keys = await foreignKeys(database());
    const unindexed: string[] = [];
    for (const key of keys) {
      const plan = await childLookupPlan(database(), key);
      if (isScan(plan) && !LEFT_UNINDEXED.includes(named(key))) unindexed.push(`${named(key)}: ${plan}`);
    }
    expect(unindexed).toEqual([]);
  });

  it("leaves only emails.account_id unindexed, and knows it is (so the exception cannot go stale)", async () => {
    const keys = await foreignKeys(env.DB);
    const scanned: string[] = [];
    for (const key of keys) if (isScan(await childLookupPlan(env.DB, key))) scanned.push(named(key));
    expect(scanned).toEqual(LEFT_UNINDEXED);
  });

  it("reads the real schema: the keys it checks include the ones deletes cascade through", async () => {
    const keys = (await foreignKeys(env.DB)).map(named);
    expect(keys).toEqual(
      expect.arrayContaining([
        "email_webhook_outbox(endpoint_id) -> webhook_endpoints",
        "email_webhook_attempts(outbox_id) -> email_webhook_outbox",
        "tickets(inbox_id) -> inboxes",
        "emails(connection_id) -> connections",
      ]),
    );
    expect(keys.length).toBeGreaterThan(40);
  });

  it("tells a scan from a search, so an unindexed key cannot pass", async () => {
    // `events` has no index on `data`: the same probe must report it.
    const plan = await childLookupPlan(env.DB, { table: "events", parent: "none", columns: ["data"] });
    expect(isScan(plan), plan).toBe(true);
    const indexed = await childLookupPlan(env.DB, {
      table: "email_webhook_attempts",
      parent: "email_webhook_outbox",
      columns: ["outbox_id"],
    });
    expect(isScan(indexed), indexed).toBe(false);
    expect(indexed).toMatch(/^SEARCH email_webhook_attempts USING (COVERING )?INDEX /m);
  });

  it("keeps the bounce report's Message-ID lookup on its own indexes, the reason emails.account_id has none", async () => {
    // The shape of emailByMessageId (src/inbound/reports/reports.repo.ts): the workspace, and the
    // email's own id or a caller's Message-ID.
    const query = db()
      .select({ id: emails.id })
      .from(emails)
      .where(and(eq(emails.accountId, "acc_X"), or(eq(emails.id, "em_X"), eq(emails.messageId, "<m@x>"))))
      .limit(2);
    const plan = (await planOf(query)).join("\n");
    expect(plan).toContain("MULTI-INDEX OR");
    expect(plan).toContain("SEARCH emails USING INDEX emails_id (id=?)");
    expect(plan).toContain(
      "SEARCH emails USING INDEX emails_account_message_id (account_id=? AND message_id=?)",
    );
  });
});
