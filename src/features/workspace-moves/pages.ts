import { type MovedTable, walkColumnsOf } from "./tables";

/** Where a walk over a table's rows stands: the ordering key of the last row (or parent) read. */
export type After = Array<number | string> | null;

export type Row = Record<string, unknown>;

/** Rows of a table read in one page (and one statement). */
const PAGE_ROWS: Record<string, number> = { emails: 25, messages: 50, mail_reports: 50, dropped_mail: 50 };
const DEFAULT_PAGE_ROWS = 200;
/** Parents per page for tables read as children (each parent has few). */
const PARENTS_PER_PAGE = 50;

const ACCOUNT_SEQ = "(SELECT seq FROM accounts WHERE id = ?1)";
/** How a parent table's rows are matched by their children's foreign key. */
const PARENT_KEY: Record<string, string> = {
  emails: "seq",
  events: "id",
  campaigns: "id",
  email_webhook_outbox: "id",
};

const extrasOf = (pass: MovedTable) => (pass.extras ?? []).map((expr, i) => `, ${expr} AS __x${i}`).join("");

/** A page's statements, run in one round trip, and how their answers make the page. */
export interface PageRead {
  statements: [D1PreparedStatement, ...D1PreparedStatement[]];
  read(results: D1Result<Row>[]): { rows: Row[]; next: After };
}

/**
 * One page of a workspace's rows of `pass`'s table in `d1` (source or target: the same statements
 * serve both), after `after`, with the key to continue from (null when the table is done).
 * Every page is read along an index, never sorted: a table along its key by workspace and then
 * the rowid (`walkOf`), children through their parents' page and their foreign key's index. The
 * few tables with no such key are read along the rowid (workspace-move-pages.test.ts names them).
 */
export async function pageOf(
  d1: D1Database,
  pass: MovedTable,
  accountId: string,
  after: After,
): Promise<{ rows: Row[]; next: After }> {
  const page = pageRead(d1, pass, accountId, after);
  return page.read(await d1.batch<Row>(page.statements));
}

/** `pageOf`'s statements, for a caller that reads several pages in one batch (`tallyAll`). */
export function pageRead(d1: D1Database, pass: MovedTable, accountId: string, after: After): PageRead {
  return pass.rows.by === "parent"
    ? childrenPage(d1, pass, accountId, after)
    : ownRowsPage(d1, pass, accountId, after);
}

/** The key to continue from: the last row's, when the page was full. */
function nextOf(results: Row[], limit: number, keys: number): After {
  const last = results.at(-1);
  if (results.length < limit || !last) return null;
  return Array.from({ length: keys }, (_, i) => last[`__k${i}`] as number | string);
}

/** How a table's own rows are walked: which are the workspace's, and the key they are read in. */
interface Walk {
  /** The table as the statement reads it (`t`). */
  from: string;
  scope: string;
  /** The ordering key, the row's own number (rowid, or emails' seq) last, so every row has one place. */
  keys: string[];
}

/**
 * Emails along their list index (account_seq, created_at, seq); the account by its id; any other
 * table along its key by workspace (`walkColumnsOf`), then the rowid. A cursor of another length
 * than the key was written before walks followed the index (a move under way as this code came
 * in): that walk goes on by rowid, as it began.
 */
function walkOf(table: string, after: After): Walk {
  if (table === "emails")
    return { from: "emails t", scope: `t.account_seq = ${ACCOUNT_SEQ}`, keys: ["t.created_at", "t.seq"] };
  if (table === "accounts") return { from: "accounts t", scope: "t.id = ?1", keys: ["t.rowid"] };
  const walk = walkColumnsOf(table);
  const columns = (walk ?? []).map((column) => `t."${column}"`);
  const legacy = after !== null && after.length !== columns.length + 1;
  return {
    // No key by workspace: along the rowid itself. An index of the workspace's rows that does not
    // hold them in rowid order (a nullable column after account_id) would be read and sorted for
    // every page.
    from: walk === null || legacy ? `${table} t NOT INDEXED` : `${table} t`,
    scope: "t.account_id = ?1",
    keys: [...(legacy ? [] : columns), "t.rowid"],
  };
}

/**
 * A page of the walk's keys (as `__k0`...) and `select` beside them, after `after`: the
 * statement's SQL and its bindings, ?1 the workspace.
 */
function walkPage(table: string, select: string, accountId: string, after: After, limit: number) {
  const { from, scope, keys } = walkOf(table, after);
  const list = keys.join(", ");
  const cursor = after === null ? "" : ` AND (${list}) > (${keys.map((_, i) => `?${i + 2}`).join(", ")})`;
  return {
    sql: `SELECT ${keys.map((key, i) => `${key} AS __k${i}`).join(", ")}${select} FROM ${from}
      WHERE ${scope}${cursor} ORDER BY ${list} LIMIT ?${(after?.length ?? 0) + 2}`,
    bound: [accountId, ...(after ?? []), limit],
    keys: keys.length,
  };
}

/** A table walked by its own rows, one statement a page. */
function ownRowsPage(d1: D1Database, pass: MovedTable, accountId: string, after: After): PageRead {
  const limit = PAGE_ROWS[pass.table] ?? DEFAULT_PAGE_ROWS;
  const page = walkPage(pass.table, `, t.*${extrasOf(pass)}`, accountId, after, limit);
  return {
    statements: [d1.prepare(page.sql).bind(...page.bound)],
    read: ([rows]) => ({
      rows: rows?.results ?? [],
      next: nextOf(rows?.results ?? [], limit, page.keys),
    }),
  };
}

/**
 * A page of parents (by their own walk), then every child of those parents: two statements in
 * one batch (one transaction), the second selecting its parents by the same walk as the first.
 */
function childrenPage(d1: D1Database, pass: MovedTable, accountId: string, after: After): PageRead {
  if (pass.rows.by !== "parent") throw new Error("not a child table");
  const { parent, fk } = pass.rows;
  const parents = walkPage(parent, "", accountId, after, PARENTS_PER_PAGE);
  const children = d1
    .prepare(
      `SELECT c.*${extrasOf(pass)} FROM ${pass.table} c JOIN ${parent} p ON p.${PARENT_KEY[parent]} = c.${fk}
       WHERE p.rowid IN (SELECT __k${parents.keys - 1} FROM (${parents.sql}))
       ORDER BY p.rowid${pass.renumbered ? `, c.${pass.renumbered}` : ""}`,
    )
    .bind(...parents.bound);
  return {
    statements: [d1.prepare(parents.sql).bind(...parents.bound), children],
    read: ([keys, rows]) => ({
      rows: rows?.results ?? [],
      next: nextOf(keys?.results ?? [], PARENTS_PER_PAGE, parents.keys),
    }),
  };
}
