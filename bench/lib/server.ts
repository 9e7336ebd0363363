/**
 * The API under test: either the one named by BENCH_URL and BENCH_TOKEN (and BENCH_FROM_DOMAIN,
 * a verified sending domain of that workspace, for the scenarios that send), or a `wrangler dev` of
 * this checkout started here, with an enterprise workspace (no email quotas) whose rate limit is
 * lifted so the figures measure throughput rather than the limiter, and a verified sending domain.
 * `--test-scheduled` lets scenarios run the minute cron by hand: GET /__scheduled?cron=*+*+*+*+*.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { constants } from "node:os";
import { join } from "node:path";
import { buildAssets } from "../../scripts/build-assets";
import { ensureDevVars, ensureRelayToken, publicBaseUrlArgs, readDevVar } from "../../scripts/lib/dev-vars";
import { applyLocalMigrations } from "../../scripts/lib/local-migrations";
import { createWorkspace } from "../../scripts/lib/workspace";
import { ROOT, WRANGLER } from "../../scripts/lib/wrangler";
import { freePorts } from "./port";
import { hasExited, killGroupNow, sleep, stopGroup } from "./process-group";

export interface Server {
  baseUrl: string;
  token: string;
  /** A verified sending domain of the token's workspace; unknown against BENCH_URL without BENCH_FROM_DOMAIN. */
  fromDomain: string | undefined;
  /** The local server's devtools port and process group (bench/profile.ts); absent for BENCH_URL. */
  local?: { inspectorPort: number; processGroup: number };
  stop(): Promise<void>;
}

const FROM_DOMAIN = "bench.test";

export const RESULTS_DIR = join(ROOT, "bench", "results");
// wrangler's start-up chatter would bury the figures; it goes to a file that a failure points at.
const LOG_FILE = join(RESULTS_DIR, "wrangler.log");
const READY_TIMEOUT_MS = 60_000;

export async function startServer(): Promise<Server> {
  const url = process.env.BENCH_URL;
  const token = process.env.BENCH_TOKEN;
  if (url && token) {
    const fromDomain = process.env.BENCH_FROM_DOMAIN || undefined;
    return { baseUrl: url.replace(/\/+$/, ""), token, fromDomain, stop: async () => {} };
  }
  if (url || token) throw new Error("set both BENCH_URL and BENCH_TOKEN to use a running server, or neither");

  // The smtp-relay scenario records SMTP logs with RELAY_TOKEN; wrangler reads .dev.vars at start.
  if (!ensureDevVars()) ensureRelayToken();
  const encryptionKey = readDevVar("ENCRYPTION_KEY");
  if (!encryptionKey)
    throw new Error("ENCRYPTION_KEY is missing from .dev.vars; the sending domain needs it");
  buildAssets();
  await applyLocalMigrations();
  const workspace = await createWorkspace(
    {
      name: "Benchmark",
      plan: "enterprise",
      overrides: { requests_per_minute: 100_000_000 },
      domain: { name: FROM_DOMAIN, encryptionKey },
      // In `DB`, where the dashboard and logs seeds write its sessions: placement would pick the emptier shard.
      shard: "DB",
    },
    "local",
  );

  const [port, inspectorPort] = (await freePorts(2)) as [number, number];
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawnWrangler(port, inspectorPort);
  const stop = stopper(child);
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    await stop();
    throw error;
  }
  const local = { inspectorPort, processGroup: child.pid ?? 0 };
  return { baseUrl, token: workspace.token, fromDomain: FROM_DOMAIN, local, stop };
}

function spawnWrangler(port: number, inspectorPort: number): ChildProcess {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const log = openSync(LOG_FILE, "w");
  const args = ["dev", "--ip", "127.0.0.1", "--port", String(port), "--show-interactive-dev-session=false"];
  // Tracking links in the sending scenarios point at this server, not wrangler.toml's 8787.
  args.push(...publicBaseUrlArgs(port));
  // GET /__scheduled?cron=*+*+*+*+* runs the minute cron by hand (scheduled-drain uses it).
  args.push("--test-scheduled");
  // D1 round trips counted inside the Worker, read on GET /_dev/d1-round-trips (bench/lib/work-cost.ts).
  args.push("--var", "D1_ROUND_TRIPS:count");
  // A devtools port of its own too: the default 9229 may belong to another wrangler on this machine.
  args.push("--inspector-port", String(inspectorPort));
  // A profile names every function when the bundle is not minified (npm run profile sets it).
  if (process.env.BENCH_NO_MINIFY === "1") args.push("--no-minify");
  // detached makes wrangler lead its own process group, so workerd and friends die with it.
  const child = spawn(WRANGLER, args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  // Without a listener a failed spawn would crash the bench on the unhandled event instead of stopping it cleanly.
  child.on("error", (error) => console.error(`could not run ${WRANGLER}: ${error.message}`));
  closeSync(log);
  return child;
}

async function waitForHealth(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`wrangler dev exited before it was ready; see ${LOG_FILE}`);
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    await sleep(250);
  }
  throw new Error(
    `${baseUrl}/health did not answer 200 within ${READY_TIMEOUT_MS / 1000} s; see ${LOG_FILE}`,
  );
}

/** Answers an idempotent stop that also runs on Ctrl-C and, as a last resort, on process exit. */
function stopper(child: ChildProcess): () => Promise<void> {
  if (child.pid === undefined) throw new Error(`could not start ${WRANGLER}`);
  const killNow = () => killGroupNow(child);
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the server.`);
    void stop().finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  };
  process.on("exit", killNow);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= stopGroup(child).finally(() => {
      process.off("exit", killNow);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    });
    return stopping;
  };
  return stop;
}
