import type { Db } from "./client";

/**
 * What preparedOnce needs of drizzle's D1 prepared query (drizzle-orm/d1 D1PreparedQuery): its SQL,
 * and `stmt`, the D1 statement every execution binds its values to. `stmt` is not in drizzle's
 * public types, so a change there must fail the test in test/workers/prepared-once.test.ts.
 */
interface D1Prepared {
  getQuery(): { sql: string };
}

/**
 * A query that drizzle builds once per isolate instead of once per call: building the SQL text is a
 * good share of a simple read's CPU (the profile of GET /v1/accounts in the README's Benchmarks).
 * Give it `sql.placeholder(...)` values and call `.prepare()` on it; each execution binds its own.
 *
 * Every request has its own D1 session and so its own Db (request-context-middleware.ts), so the
 * query cannot be cached per Db: it is built once, and each call gets a copy whose D1 statement is
 * prepared on the caller's database or session. The copy inherits everything else (the SQL, the
 * result mapping) from the one built, so a call costs an object and a `prepare`, not a build.
 */
export function preparedOnce<Query extends D1Prepared>(build: (db: Db) => Query): (db: Db) => Query {
  let built: Query | undefined;
  return (db) => {
    built ??= build(db);
    const own = Object.create(built) as Query & { stmt: D1PreparedStatement };
    own.stmt = db.$client.prepare(built.getQuery().sql);
    return own;
  };
}
