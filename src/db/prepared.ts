import type { Db } from "./client";

/**
 * A query that drizzle builds once per database binding instead of once per call: building the
 * SQL text is a good share of a simple read's CPU (the profile of GET /v1/accounts in the README's
 * Benchmarks). Give it `sql.placeholder(...)` values and call `.prepare()` on it; each execution
 * binds its own values. The binding lives as long as the isolate, and so does the query.
 */
export function preparedOnce<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const built = new WeakMap<Db, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
