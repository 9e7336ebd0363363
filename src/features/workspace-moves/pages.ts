import type { MovedTable } from "./tables";

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
 * Every statement is served by an index where the table has one by workspace: by account_id
 * (rowid order), emails by their list index (account_seq, created_at, seq), children through their
 * parents' page and their foreign key's index.
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
  return keys === 1 ? [last.__k0 as number] : [last.__k0 as number, last.__k1 as number];
}

/** Emails along (account_seq, created_at, seq): the workspace's own index, in list order. */
const emailKeys = `SELECT t.created_at AS __k0, t.seq AS __k1 FROM emails t
  WHERE t.account_seq = ${ACCOUNT_SEQ} AND (t.created_at, t.seq) > (?2, ?3)
  ORDER BY t.created_at, t.seq LIMIT ?4`;

/**
 * A table walked by its own rows, one statement a page: emails along their list index, any other
 * table by account_id in rowid order.
 */
function ownRowsPage(d1: D1Database, pass: MovedTable, accountId: string, after: After): PageRead {
  const limit = PAGE_ROWS[pass.table] ?? DEFAULT_PAGE_ROWS;
  const emails = pass.rows.by === "emails";
  const scope = pass.table === "accounts" ? "t.id = ?1" : "t.account_id = ?1";
  const statement = emails
    ? d1
        .prepare(
          `SELECT t.created_at AS __k0, t.seq AS __k1, t.*${extrasOf(pass)} FROM emails t
           WHERE t.account_seq = ${ACCOUNT_SEQ} AND (t.created_at, t.seq) > (?2, ?3)
           ORDER BY t.created_at, t.seq LIMIT ?4`,
        )
        .bind(accountId, after?.[0] ?? -1, after?.[1] ?? -1, limit)
    : d1
        .prepare(
          `SELECT t.rowid AS __k0, t.*${extrasOf(pass)} FROM ${pass.table} t
           WHERE ${scope} AND t.rowid > ?2 ORDER BY t.rowid LIMIT ?3`,
        )
        .bind(accountId, after?.[0] ?? -1, limit);
  return {
    statements: [statement],
    read: ([page]) => {
      const rows = page?.results ?? [];
      return { rows, next: nextOf(rows, limit, emails ? 2 : 1) };
    },
  };
}

/**
 * A page of parents (by their own walk), then every child of those parents: two statements in
 * one batch (one transaction), the second selecting its parents by the same walk as the first.
 */
function childrenPage(d1: D1Database, pass: MovedTable, accountId: string, after: After): PageRead {
  if (pass.rows.by !== "parent") throw new Error("not a child table");
  const { parent, fk } = pass.rows;
  const emails = parent === "emails";
  const parentKeys = emails
    ? emailKeys
    : `SELECT rowid AS __k0 FROM ${parent} WHERE account_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3`;
  const bound = emails
    ? [accountId, after?.[0] ?? -1, after?.[1] ?? -1, PARENTS_PER_PAGE]
    : [accountId, after?.[0] ?? -1, PARENTS_PER_PAGE];
  const children = d1
    .prepare(
      `SELECT t.*${extrasOf(pass)} FROM ${pass.table} t JOIN ${parent} p ON p.${PARENT_KEY[parent]} = t.${fk}
       WHERE p.rowid IN (SELECT ${emails ? "__k1" : "__k0"} FROM (${parentKeys}))
       ORDER BY p.rowid${pass.renumbered ? `, t.${pass.renumbered}` : ""}`,
    )
    .bind(...bound);
  return {
    statements: [d1.prepare(parentKeys).bind(...bound), children],
    read: ([parents, rows]) => ({
      rows: rows?.results ?? [],
      next: nextOf(parents?.results ?? [], PARENTS_PER_PAGE, emails ? 2 : 1),
    }),
  };
}
