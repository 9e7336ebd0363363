import { drizzle } from "drizzle-orm/d1";
import * as logsSchema from "./schema";

const connect = (d1: D1Database) => drizzle(d1, { schema: logsSchema });
/** The LOGS database (request logs), apart from `Db`: a query can never mix the two. */
export type LogsDb = ReturnType<typeof connect>;

/** One drizzle instance per binding, as `createDb` keeps for DB. */
const instances = new WeakMap<D1Database, LogsDb>();

export function createLogsDb(d1: D1Database): LogsDb {
  let db = instances.get(d1);
  if (!db) {
    db = connect(d1);
    instances.set(d1, db);
  }
  return db;
}
