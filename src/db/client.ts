import { is, SQL } from "drizzle-orm";
import { DrizzleD1Database, drizzle, SQLiteD1Session } from "drizzle-orm/d1";
import { SQLiteAsyncDialect, SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

/**
 * Without the schema: the code builds every query from the table objects and never uses drizzle's
 * relational API (`db.query.<table>`), which the schema would set up on every construction.
 */
const connect = (d1: D1Database) => drizzle(d1);
export type Db = ReturnType<typeof connect>;

/**
 * drizzle prepares its view of every table when it is created, which is worth doing once per
 * binding rather than once per request: the binding object lives as long as the isolate.
 */
const instances = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = connect(d1);
    instances.set(d1, db);
  }
  return db;
}
export { schema };

/**
 * A query builder over one D1 session (`withSession`), made per request: the session carries the
 * request's bookmark, so it cannot be shared like `createDb`'s. Like `connect`, without the
 * schema: with it, drizzle would build a relational query builder for each of the ~80 tables on
 * every request. A session answers `prepare` and `batch`, all that drizzle and `runBatch` use.
 */
export function createSessionDb(session: D1DatabaseSession): Db {
  const client = session as unknown as D1Database;
  const db = new DrizzleD1Database(
    "async",
    sessionDialect,
    new SQLiteD1Session(client, sessionDialect, undefined),
    undefined,
  );
  return Object.assign(db, { $client: client }) as unknown as Db;
}

const sessionDialect = new SQLiteAsyncDialect();

/** A query builder (insert, update, select...) or a raw `sql` statement. */
export type Statement = SQL | { toSQL(): { sql: string; params: unknown[] } };

const dialect = new SQLiteSyncDialect();

/**
 * A failed batch, like drizzle's DrizzleQueryError for one query: `query` holds the statements'
 * SQL with `?` placeholders, so a log can say what failed (lib/logger.ts) without the bound
 * values. The message stays D1's own, for callers that read it; a log never shows the message
 * of an error that carries a query.
 */
export class BatchQueryError extends Error {
  override name = "BatchQueryError";
  constructor(
    readonly query: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * Runs statements as one D1 batch (one transaction). drizzle's own batch cannot carry raw `sql`
 * statements with parameters, so every statement is compiled and handed to D1 directly; the
 * answers are D1's raw results, one per statement. Either database's drizzle (DB or LOGS) will do.
 */
export async function runBatch(db: Pick<Db, "$client">, statements: Statement[]): Promise<D1Result[]> {
  const queries = statements.map((statement) =>
    is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL(),
  );
  if (queries.length === 0) return [];
  try {
    return await db.$client.batch(queries.map((q) => db.$client.prepare(q.sql).bind(...q.params)));
  } catch (error) {
    throw new BatchQueryError(queries.map((q) => q.sql).join("; "), error);
  }
}
