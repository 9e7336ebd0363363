import { drizzle } from "drizzle-orm/d1";

const connect = (d1: D1Database) => drizzle(d1);
/** The DIRECTORY database, apart from `Db` (a workspace's shard): a query can never mix the two. */
export type DirectoryDb = ReturnType<typeof connect>;

/** One drizzle instance per binding, as `createDb` keeps for a shard. */
const instances = new WeakMap<D1Database, DirectoryDb>();

export function directoryDb(env: Pick<Env, "DIRECTORY">): DirectoryDb {
  let db = instances.get(env.DIRECTORY);
  if (!db) {
    db = connect(env.DIRECTORY);
    instances.set(env.DIRECTORY, db);
  }
  return db;
}
