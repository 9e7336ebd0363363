import { type After, pageOf, type Row } from "./pages";
import { MOVED_TABLES, type MovedTable, primaryKeyOf, writableColumnsOf } from "./tables";

/** A statement's rows as one JSON parameter: well under D1's 2 MB for a value. */
const JSON_BYTES_PER_STATEMENT = 900_000;

const q = (name: string) => `"${name}"`;
/** The copy's cursor on the target, as one comparable value (`pass:after`). */
const CURSOR = "(SELECT pass || ':' || coalesce(after, '') FROM move_cursors WHERE account_id = ?1)";
const cursorText = (pass: number, after: string | null) => `${pass}:${after ?? ""}`;

/** Starts (or restarts) the copy of a workspace onto `target`: its cursor at the first pass. */
export async function beginCopy(target: D1Database, accountId: string, now: number): Promise<void> {
  await target
    .prepare(
      `INSERT INTO move_cursors (account_id, pass, after, updated_at) VALUES (?1, 0, NULL, ?2)
       ON CONFLICT (account_id) DO UPDATE SET pass = 0, after = NULL, updated_at = excluded.updated_at`,
    )
    .bind(accountId, now)
    .run();
}

export async function endCopy(target: D1Database, accountId: string): Promise<void> {
  await target.prepare("DELETE FROM move_cursors WHERE account_id = ?1").bind(accountId).run();
}

/**
 * Copies the next page of the workspace's rows from `source` to `target`: the rows and the cursor
 * moved past them in one batch, each statement written only if the cursor is still where this
 * page began (a second command copying at once writes nothing). Answers whether the copy is done.
 */
export async function copyPage(
  source: D1Database,
  target: D1Database,
  accountId: string,
  now: number,
): Promise<{ done: boolean; table?: string; rows: number }> {
  const cursor = await target
    .prepare("SELECT pass, after FROM move_cursors WHERE account_id = ?1")
    .bind(accountId)
    .first<{ pass: number; after: string | null }>();
  if (!cursor) throw new Error(`No copy of ${accountId} was begun on the target`);
  const pass = MOVED_TABLES[cursor.pass];
  if (!pass) return { done: true, rows: 0 };
  const after = cursor.after ? (JSON.parse(cursor.after) as After) : null;
  const { rows, next } = await pageOf(source, pass, accountId, after);
  const expected = cursorText(cursor.pass, cursor.after);
  const statements: D1PreparedStatement[] = [];
  if (pass.kind === "derived" && after === null)
    statements.push(wipeDerived(target, pass, accountId, expected));
  statements.push(...inserts(target, pass, accountId, rows, expected));
  const nextPass = next === null ? cursor.pass + 1 : cursor.pass;
  const nextAfter = next === null ? null : JSON.stringify(next);
  statements.push(
    target
      .prepare(
        `UPDATE move_cursors SET pass = ?2, after = ?3, updated_at = ?4
         WHERE account_id = ?1 AND pass || ':' || coalesce(after, '') = ?5`,
      )
      .bind(accountId, nextPass, nextAfter, now, expected),
  );
  await target.batch(statements);
  return { done: nextPass >= MOVED_TABLES.length, table: pass.table, rows: rows.length };
}

/** The trigger-made rows of a derived table, before the source's are copied over them. */
function wipeDerived(target: D1Database, pass: MovedTable, accountId: string, expected: string) {
  const scope =
    pass.rows.by === "parent"
      ? `${pass.rows.fk} IN (SELECT id FROM ${pass.rows.parent} WHERE account_id = ?1)`
      : "account_id = ?1";
  return target
    .prepare(`DELETE FROM ${pass.table} WHERE ${scope} AND ${CURSOR} = ?2`)
    .bind(accountId, expected);
}

/**
 * The statements writing `rows` on the target: INSERT ... SELECT over a JSON parameter (D1's 100
 * bound parameters are no limit), computed columns filled from the target's own rows. A row whose
 * key exists is updated in place (a refresh pass, or counters a trigger made); renumbered rows are
 * always new rows, which the cursor guard keeps from being written twice.
 */
function inserts(target: D1Database, pass: MovedTable, accountId: string, rows: Row[], expected: string) {
  if (rows.length === 0) return [];
  const columns = writableColumnsOf(pass.table).filter((c) => c !== pass.renumbered);
  const values = columns.map((c) => pass.computed?.[c] ?? `j.value ->> '$.${c}'`);
  const key = primaryKeyOf(pass.table);
  const updated = columns.filter((c) => !key.includes(c) && pass.computed?.[c] !== "NULL");
  const onConflict = pass.renumbered
    ? ""
    : updated.length === 0
      ? " ON CONFLICT DO NOTHING"
      : ` ON CONFLICT (${key.map(q).join(", ")}) DO UPDATE SET ${updated.map((c) => `${q(c)} = excluded.${q(c)}`).join(", ")}`;
  const sql = `INSERT INTO ${pass.table} (${columns.map(q).join(", ")})
    SELECT ${values.join(", ")} FROM json_each(?2) AS j WHERE ${CURSOR} = ?3${onConflict}`;
  const kept = [...columns, ...(pass.extras ?? []).map((_, i) => `__x${i}`)];
  const statements: D1PreparedStatement[] = [];
  let group: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (group.length === 0) return;
    statements.push(target.prepare(sql).bind(accountId, `[${group.join(",")}]`, expected));
    group = [];
    bytes = 0;
  };
  for (const row of rows) {
    const json = JSON.stringify(Object.fromEntries(kept.map((c) => [c, row[c] ?? null])));
    if (bytes + json.length > JSON_BYTES_PER_STATEMENT) flush();
    group.push(json);
    bytes += json.length;
  }
  flush();
  return statements;
}
