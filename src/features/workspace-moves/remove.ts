import { MOVED_TABLES } from "./tables";

/** Rows deleted per statement (their children go with them, by their foreign keys' cascade). */
const DELETE_ROWS = 300;

/**
 * The tables whose rows are deleted one by one: children before their parents (the copy order
 * reversed), the account last, whose cascade takes whatever is left. Children found through a
 * parent go with it.
 */
const deletionOrder = (): string[] =>
  [...new Set(MOVED_TABLES.filter((t) => t.rows.by !== "parent").map((t) => t.table))].reverse();

function deleteStatement(d1: D1Database, table: string, accountId: string): D1PreparedStatement {
  if (table === "accounts") return d1.prepare("DELETE FROM accounts WHERE id = ?1").bind(accountId);
  const scope =
    table === "emails" ? "account_seq = (SELECT seq FROM accounts WHERE id = ?1)" : "account_id = ?1";
  return d1
    .prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${scope} LIMIT ?2)`)
    .bind(accountId, DELETE_ROWS);
}

/**
 * Deletes a bounded part of a workspace's rows from a shard, from the table at `from` on: tables
 * already empty cost a statement each, and the call stops after the first statement that found a
 * full page. Answers where to go on from, or null once the workspace has no row left there.
 */
export async function removePage(d1: D1Database, accountId: string, from: number): Promise<number | null> {
  const tables = deletionOrder();
  for (let i = from; i < tables.length; i++) {
    const result = await deleteStatement(d1, tables[i] as string, accountId).run();
    if (result.meta.changes >= DELETE_ROWS) return i;
  }
  return null;
}
