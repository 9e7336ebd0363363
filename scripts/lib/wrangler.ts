import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
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

/** A SQL string literal. */
export const sqlText = (value: string) => `'${value.replaceAll("'", "''")}'`;
