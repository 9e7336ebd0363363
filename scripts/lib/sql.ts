import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeLocal, type StatementRows, withLocalDatabases } from "./local-d1";
import { ROOT, type Target, WRANGLER } from "./wrangler";

/**
 * How often a local execution is tried while the database is locked. A running `npm start` writes
 * to the same SQLite files (its queues, request logs, the minute's work), and the local runtime
 * answers SQLITE_BUSY at once instead of waiting: a `npm run bootstrap` beside it failed so in CI.
 * The statements run as one batch, a transaction, so a refused try wrote nothing.
 */
const LOCKED_TRIES = 6;
const LOCKED_PAUSE_MS = 250;

const isLocked = (message: string) => /SQLITE_BUSY|database is locked/.test(message);

/** The local databases `withLocalSql` holds open while its work runs, if any. */
let held: Record<string, D1Database> | undefined;

/**
 * Runs `work` with one local runtime open for all of it: every local `executeSql` inside uses that
 * runtime instead of opening one of its own (about 0.35 s each), so a command that makes several
 * calls (a bootstrap: three; `npm start` on a restart: eight, after its migrations) starts one.
 * Inside another `withLocalSql`, it shares the outer runtime.
 */
export async function withLocalSql<T>(
  work: (databases: Record<string, D1Database>) => Promise<T>,
): Promise<T> {
  if (held) return work(held);
  return withLocalDatabases(async (databases) => {
    held = databases;
    try {
      return await work(databases);
    } finally {
      held = undefined;
    }
  });
}

/**
 * Executes SQL against a D1 database (DB unless told; LOGS holds request logs, DIRECTORY where
 * each workspace lives) and answers the rows of each statement.
 *
 * Locally, in a local runtime of this process (the one `withLocalSql` holds, else one of its own)
 * rather than a `wrangler d1 execute --local` each: that command loads wrangler's whole command
 * line and starts a runtime every time, 1.7 CPU-seconds, and a `npm start` or `npm run bootstrap`
 * ran three to six of them (the dev-commands test: 27 runs, 45 CPU-s). Here wrangler loads once
 * per process, and a call that opens a runtime of its own costs about 0.4 CPU-s. A locked local
 * database is tried again, up to `LOCKED_TRIES` times, a little longer apart each time.
 */
export async function executeSql(sql: string, target: Target, database = "DB"): Promise<StatementRows[]> {
  if (target === "remote") return executeRemote(sql, database);
  const run = (databases: Record<string, D1Database>) => {
    const db = databases[database];
    if (!db) throw new Error(`wrangler.toml declares no D1 database ${database}`);
    return executeLocal(db, sql);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await (held ? run(held) : withLocalDatabases(run));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt < LOCKED_TRIES && isLocked(message)) {
        await new Promise((resolve) => setTimeout(resolve, LOCKED_PAUSE_MS * attempt));
        continue;
      }
      throw new Error(`local D1 ${database}: ${message}`);
    }
  }
}

/**
 * The most SQL sent to a remote database as `--command` (one process argument; Linux caps one at
 * 128 KiB). Larger goes as `--file`, which remotely is D1's import: it answers how many statements
 * ran, not their rows, so only writes may be that large.
 */
const REMOTE_COMMAND_BYTES = 64 * 1024;

function executeRemote(sql: string, database: string): StatementRows[] {
  const inline = Buffer.byteLength(sql) <= REMOTE_COMMAND_BYTES;
  const dir = inline ? null : mkdtempSync(join(tmpdir(), "d1-"));
  const file = dir ? join(dir, "statements.sql") : "";
  if (dir) writeFileSync(file, sql);
  try {
    const result = spawnSync(
      WRANGLER,
      ["d1", "execute", database, "--remote", "--json", ...(dir ? [`--file=${file}`] : ["--command", sql])],
      // CI=true keeps wrangler from stopping at interactive confirmations.
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, CI: "true" } },
    );
    if (result.status !== 0) throw new Error(`wrangler d1 execute failed: ${result.stderr || result.stdout}`);
    return JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
