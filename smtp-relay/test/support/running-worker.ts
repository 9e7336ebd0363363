/**
 * The real API for the relay's tests: `wrangler dev` of this checkout on a free loopback port, with
 * its own throwaway state directory (migrations applied, workspaces seeded with SQL), so the tests
 * exercise the very Worker the relay talks to in production, and never touch the developer's data.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePorts } from "../../../bench/lib/port";
import { hasExited, sleep, stopGroup } from "../../../bench/lib/process-group";
import { executeLocal, withLocalDatabases } from "../../../scripts/lib/local-d1";
import { migrateAll } from "../../../scripts/lib/local-migrations";
import type { SeedSql } from "../../../scripts/lib/workspace";
import { ROOT, WRANGLER } from "../../../scripts/lib/wrangler";
import { migratedTemplate } from "./migrated-template";

export interface RunningWorker {
  url: string;
  stop(): Promise<void>;
}

export const WORKER_SECRETS = {
  ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=",
  OPS_TOKEN: "ops_relay_test_operator_token",
  RELAY_TOKEN: "rly_relay_test_token_for_smtp_logs",
};

const READY_TIMEOUT_MS = 90_000;

/**
 * A throwaway state directory with every database's migrations applied and `seed` run after them:
 * its directory rows, then its workspaces' rows in their shard (`DB` unless named; a string seeds
 * `DB` alone).
 */
export async function preparedState(seed: SeedSql | string): Promise<string> {
  const state = mkdtempSync(join(tmpdir(), "relay-worker-"));
  const { db, directory, shard } = typeof seed === "string" ? { db: seed, directory: "", shard: "DB" } : seed;
  // The migrations applied once per run, not once per Worker (migrated-template.ts).
  cpSync(await migratedTemplate(), state, { recursive: true });
  // As `wrangler d1 migrations apply` and `wrangler d1 execute --file` with `--persist-to`, in one
  // local runtime rather than one per migration file (scripts/lib/local-migrations.ts). On the
  // copy they find nothing left to apply, and say so in 0.2 s.
  await withLocalDatabases(async (databases) => {
    await migrateAll(databases, () => {});
    for (const [binding, sql] of [
      ["DIRECTORY", directory],
      [shard ?? "DB", db],
    ] as const) {
      const target = databases[binding];
      if (!target) throw new Error(`No local D1 binding ${binding}`);
      if (sql) await executeLocal(target, sql);
    }
  }, state);
  return state;
}

export interface DevOptions {
  state: string;
  port: number;
  inspectorPort: number;
  vars: Record<string, string>;
  /** More `wrangler dev` flags, such as `--test-scheduled`. */
  flags?: string[];
}

/** `wrangler dev` on `state`, leading a process group of its own (workerd included), and its recent output. */
export function spawnDev(options: DevOptions): { child: ChildProcess; output: () => string } {
  const url = `http://127.0.0.1:${options.port}`;
  // PUBLIC_BASE_URL too: links the Worker hands out point at this port, not wrangler.toml's 8787.
  const varArgs = Object.entries({
    ...WORKER_SECRETS,
    ENVIRONMENT: "test",
    PUBLIC_BASE_URL: url,
    ...options.vars,
  }).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    WRANGLER,
    [
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(options.port),
      "--inspector-port",
      String(options.inspectorPort),
      "--persist-to",
      options.state,
      "--show-interactive-dev-session=false",
      ...(options.flags ?? []),
      ...varArgs,
    ],
    {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => output };
}

/**
 * Starts the Worker with `seed` applied after the migrations. `vars` override the test ones
 * (the browser tests run it as `development`, the way `npm start` serves people).
 */
export async function startWorker(
  seed: SeedSql | string,
  vars: Record<string, string> = {},
): Promise<RunningWorker> {
  const state = await preparedState(seed);
  const [port, inspectorPort] = (await freePorts(2)) as [number, number];
  const url = `http://127.0.0.1:${port}`;
  const { child, output } = spawnDev({ state, port, inspectorPort, vars });
  const stop = async () => {
    await stopGroup(child);
    rmSync(state, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

export async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`wrangler dev exited early:\n${output()}`);
    try {
      const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  throw new Error(`wrangler dev did not become healthy:\n${output()}`);
}
