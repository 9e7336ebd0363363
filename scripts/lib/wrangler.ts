import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** `wrangler.toml` (or the file at `configPath`) parsed; the caller names the part it reads. */
export function readWranglerToml<T>(configPath = join(ROOT, "wrangler.toml")): T {
  return parse(readFileSync(configPath, "utf8")) as T;
}

export type Target = "local" | "remote";

/** Runs wrangler with inherited output; exits the process if it fails. */
export function runWrangler(args: string[]): void {
  // CI=true keeps wrangler from stopping at interactive confirmations.
  const result = spawnSync(WRANGLER, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CI: "true" },
  });
  if (result.status !== 0) {
    console.error(`wrangler ${args.join(" ")} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

/**
 * The most SQL sent to a remote database as `--command` (one process argument; Linux caps one at
 * 128 KiB). Larger goes as `--file`, which remotely is D1's import: it answers how many statements
 * ran, not their rows, so only writes may be that large.
 */
const REMOTE_COMMAND_BYTES = 64 * 1024;

/**
 * How often a local execution is tried while the database is locked. A running `npm start` writes
 * to the same SQLite files (its queues, request logs, the minute's work), and the local runtime
 * answers SQLITE_BUSY at once instead of waiting: a `npm run bootstrap` beside it failed so in CI.
 * Wrangler runs the statements as one batch, a transaction, so a refused try wrote nothing.
 */
const LOCKED_TRIES = 6;
const LOCKED_PAUSE_MS = 250;

const isLocked = (output: string) => /SQLITE_BUSY|database is locked/.test(output);

/** Blocks the (command-line) process for `ms`: executeSql is synchronous, as its callers are. */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Executes SQL against a D1 database (DB unless told; LOGS holds request logs, DIRECTORY where
 * each workspace lives) and answers the rows of each statement. A local database that is locked
 * is tried again, up to `LOCKED_TRIES` times, a little longer apart each time.
 */
export function executeSql(
  sql: string,
  target: Target,
  database = "DB",
): Array<{ results: Record<string, unknown>[] }> {
  const inline = target === "remote" && Buffer.byteLength(sql) <= REMOTE_COMMAND_BYTES;
  const dir = inline ? null : mkdtempSync(join(tmpdir(), "d1-"));
  const file = dir ? join(dir, "statements.sql") : "";
  if (dir) writeFileSync(file, sql);
  const input = dir ? [`--file=${file}`] : ["--command", sql];
  try {
    for (let attempt = 1; ; attempt++) {
      const result = spawnSync(WRANGLER, ["d1", "execute", database, `--${target}`, "--json", ...input], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, CI: "true" },
      });
      if (result.status === 0) return JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
      const output = result.stderr || result.stdout;
      if (target === "local" && attempt < LOCKED_TRIES && isLocked(output)) {
        pause(LOCKED_PAUSE_MS * attempt);
        continue;
      }
      throw new Error(`wrangler d1 execute failed: ${output}`);
    }
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** A SQL string literal. */
export const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
