/**
 * What each table of the local D1 databases costs on disk, read from SQLite's dbstat in the files
 * wrangler dev keeps under .wrangler/state (read-only, beside the running server: a WAL reader).
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ROOT } from "../../scripts/lib/wrangler";

const D1_DIR = join(ROOT, ".wrangler", "state", "v3", "d1", "miniflare-D1DatabaseObject");

/** Per table: its rows, and the bytes of its pages and of its indexes' pages. */
export type TableSizes = Map<string, { rows: number; bytes: number }>;

/** The local files of the databases holding `table` (every shard: tickets; LOGS: log_accounts). */
function filesHolding(table: string): string[] {
  const files = readdirSync(D1_DIR).filter((file) => {
    if (!file.endsWith(".sqlite") || file === "metadata.sqlite") return false;
    const db = new DatabaseSync(join(D1_DIR, file), { readOnly: true });
    try {
      return Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table));
    } finally {
      db.close();
    }
  });
  if (files.length === 0) throw new Error(`no local D1 database under ${D1_DIR} has a table ${table}`);
  return files;
}

/** The sizes of `tables` in every file, added up. */
function sizesInAll(files: string[], tables: readonly string[]): TableSizes {
  const total: TableSizes = new Map();
  for (const file of files)
    for (const [table, size] of sizesIn(file, tables)) {
      const sum = total.get(table) ?? { rows: 0, bytes: 0 };
      total.set(table, { rows: sum.rows + size.rows, bytes: sum.bytes + size.bytes });
    }
  return total;
}

/** Rows and bytes (table plus its indexes, from dbstat's page sizes) of each of `tables`. */
function sizesIn(file: string, tables: readonly string[]): TableSizes {
  const db = new DatabaseSync(join(D1_DIR, file), { readOnly: true });
  try {
    const bytes = new Map<string, number>();
    const pages = db
      .prepare(
        `SELECT m.tbl_name AS tbl, SUM(s.pgsize) AS bytes FROM dbstat s
         JOIN sqlite_master m ON m.name = s.name GROUP BY m.tbl_name`,
      )
      .all() as Array<{ tbl: string; bytes: number }>;
    for (const page of pages) bytes.set(page.tbl, Number(page.bytes));
    const sizes: TableSizes = new Map();
    for (const table of tables) {
      const counted = db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number };
      sizes.set(table, { rows: Number(counted.n), bytes: bytes.get(table) ?? 0 });
    }
    return sizes;
  } finally {
    db.close();
  }
}

/**
 * The sizes of `tables` in every workspace shard (added up: the bench's workspace is in one of them,
 * and each figure is a growth) and of `logTables` of LOGS, together.
 */
export function localTableSizes(tables: readonly string[], logTables: readonly string[]): TableSizes {
  return new Map([
    ...sizesInAll(filesHolding("tickets"), tables),
    ...sizesInAll(filesHolding("log_accounts"), logTables),
  ]);
}
