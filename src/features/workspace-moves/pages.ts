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
  const limit = PAGE_ROWS[pass.table] ?? DEFAULT_PAGE_ROWS;
  return pass.rows.by === "account"
    ? byAccount(d1, pass, accountId, after, limit)
    : pass.rows.by === "emails"
      ? emailsPage(d1, pass, accountId, after, limit)
      : childrenPage(d1, pass, accountId, after);
}

async function byAccount(d1: D1Database, pass: MovedTable, accountId: string, after: After, limit: number) {
  const scope = pass.table === "accounts" ? "t.id = ?1" : "t.account_id = ?1";
  const { results } = await d1
    .prepare(
      `SELECT t.rowid AS __k0, t.*${extrasOf(pass)} FROM ${pass.table} t
       WHERE ${scope} AND t.rowid > ?2 ORDER BY t.rowid LIMIT ?3`,
    )
    .bind(accountId, after?.[0] ?? -1, limit)
    .all<Row>();
  const last = results.at(-1);
  return { rows: results, next: results.length < limit || !last ? null : [last.__k0 as number] };
}

/** Emails along (account_seq, created_at, seq): the workspace's own index, in list order. */
const emailKeys = `SELECT t.created_at AS __k0, t.seq AS __k1 FROM emails t
  WHERE t.account_seq = ${ACCOUNT_SEQ} AND (t.created_at, t.seq) > (?2, ?3)
  ORDER BY t.created_at, t.seq LIMIT ?4`;

async function emailsPage(d1: D1Database, pass: MovedTable, accountId: string, after: After, limit: number) {
  const { results } = await d1
    .prepare(
      `SELECT t.created_at AS __k0, t.seq AS __k1, t.*${extrasOf(pass)} FROM emails t
       WHERE t.account_seq = ${ACCOUNT_SEQ} AND (t.created_at, t.seq) > (?2, ?3)
       ORDER BY t.created_at, t.seq LIMIT ?4`,
    )
    .bind(accountId, after?.[0] ?? -1, after?.[1] ?? -1, limit)
    .all<Row>();
  const last = results.at(-1);
  return {
    rows: results,
    next: results.length < limit || !last ? null : [last.__k0 as number, last.__k1 as number],
  };
}

/** A page of parents (by their own walk), then every child of those parents. */
async function childrenPage(d1: D1Database, pass: MovedTable, accountId: string, after: After) {
  if (pass.rows.by !== "parent") throw new Error("not a child table");
  const { parent, fk } = pass.rows;
  const emails = parent === "emails";
  const parents = emails
    ? await d1
        .prepare(emailKeys)
        .bind(accountId, after?.[0] ?? -1, after?.[1] ?? -1, PARENTS_PER_PAGE)
        .all<{ __k0: number; __k1: number }>()
    : await d1
        .prepare(
          `SELECT rowid AS __k0 FROM ${parent} WHERE account_id = ?1 AND rowid > ?2 ORDER BY rowid LIMIT ?3`,
        )
        .bind(accountId, after?.[0] ?? -1, PARENTS_PER_PAGE)
        .all<{ __k0: number; __k1?: number }>();
  const last = parents.results.at(-1);
  const next: After =
    parents.results.length < PARENTS_PER_PAGE || !last
      ? null
      : emails
        ? [last.__k0, last.__k1 as number]
        : [last.__k0];
  if (parents.results.length === 0) return { rows: [], next };
  const rowids = parents.results.map((p) => (emails ? p.__k1 : p.__k0));
  const { results } = await d1
    .prepare(
      `SELECT t.*${extrasOf(pass)} FROM ${pass.table} t JOIN ${parent} p ON p.${PARENT_KEY[parent]} = t.${fk}
       WHERE p.rowid IN (SELECT value FROM json_each(?1))
       ORDER BY p.rowid${pass.renumbered ? `, t.${pass.renumbered}` : ""}`,
    )
    .bind(JSON.stringify(rowids))
    .all<Row>();
  return { rows: results, next };
}
