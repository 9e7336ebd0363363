import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

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
 * Executes SQL against a D1 database (DB unless told; LOGS holds request logs, DIRECTORY where
 * each workspace lives) and answers the rows of each statement.
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
    const result = spawnSync(WRANGLER, ["d1", "execute", database, `--${target}`, "--json", ...input], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
    });
    if (result.status !== 0) {
      throw new Error(`wrangler d1 execute failed: ${result.stderr || result.stdout}`);
    }
    return JSON.parse(result.stdout.slice(result.stdout.indexOf("[")));
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

/** A SQL string literal. */
export const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
