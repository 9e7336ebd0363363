/**
 * A real `wrangler dev` of this checkout that a test can crash and start again on the same
 * persisted state: `kill()` is a SIGKILL of its whole process group (wrangler, esbuild, workerd),
 * with no chance to finish anything, as a power cut or an OOM kill would do, and `start()` serves
 * the same state directory on the same ports. `--test-scheduled` lets the test fire the minute cron
 * (`scheduled()`), which local `wrangler dev` never fires on its own.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { freePorts } from "../../bench/lib/port";
import { hasExited, sleep, stopGroup } from "../../bench/lib/process-group";
import type { SeedSql } from "../../scripts/lib/workspace";
import { preparedState, spawnDev, waitForHealth } from "../../smtp-relay/test/support/running-worker";

const KILL_TIMEOUT_MS = 10_000;

export interface RestartableWorker {
  url: string;
  /** The persisted state directory (`--persist-to`), kept across kills. */
  state: string;
  start(): Promise<void>;
  /** SIGKILL of the whole group; resolves once none of its processes (workerd included) is left. */
  kill(): Promise<{ killed: number; workerds: number }>;
  /** Fires the minute cron once, as the production trigger does; resolves when it has run. */
  cron(): Promise<number>;
  /** Stops it for good and deletes the state. */
  dispose(): Promise<void>;
}

/** pid, command name and process group of every process, from /proc. */
function processes(): Array<{ pid: number; comm: string; group: number }> {
  const found: Array<{ pid: number; comm: string; group: number }> = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces; the fields after it are plain.
      const close = stat.lastIndexOf(")");
      const [state, , group] = stat.slice(close + 2).split(" ");
      if (state === "Z") continue; // Dead already, only waiting for its parent to read its status.
      found.push({ pid, comm: stat.slice(stat.indexOf("(") + 1, close), group: Number(group) });
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export async function startRestartableWorker(
  seed: SeedSql,
  vars: Record<string, string>,
): Promise<RestartableWorker> {
  const state = await preparedState(seed);
  const [port, inspectorPort] = (await freePorts(2)) as [number, number];
  const url = `http://127.0.0.1:${port}`;
  let running: { child: ChildProcess; output: () => string } | null = null;

  const start = async () => {
    if (running) throw new Error("the worker is already running");
    running = spawnDev({ state, port, inspectorPort, vars, flags: ["--test-scheduled"] });
    await waitForHealth(url, running.child, running.output);
  };

  const kill = async () => {
    if (!running) throw new Error("the worker is not running");
    const { child } = running;
    running = null;
    const group = child.pid as number;
    const members = processes().filter((p) => p.group === group);
    const workerds = members.filter((p) => p.comm.startsWith("workerd")).length;
    process.kill(-group, "SIGKILL");
    if (!hasExited(child)) await Promise.race([once(child, "exit"), sleep(KILL_TIMEOUT_MS)]);
    const deadline = Date.now() + KILL_TIMEOUT_MS;
    let left = members;
    while (Date.now() < deadline) {
      const alive = new Set(processes().map((p) => p.pid));
      left = members.filter((p) => alive.has(p.pid));
      if (left.length === 0) break;
      await sleep(50);
    }
    if (left.length > 0)
      throw new Error(`SIGKILL left ${left.map((p) => `${p.comm}(${p.pid})`).join(", ")} running`);
    return { killed: members.length, workerds };
  };

  const cron = async () => {
    const res = await fetch(`${url}/__scheduled?cron=*+*+*+*+*`, { signal: AbortSignal.timeout(60_000) });
    await res.body?.cancel();
    return res.status;
  };

  const dispose = async () => {
    if (running) await stopGroup(running.child);
    running = null;
    rmSync(state, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (error) {
    await dispose();
    throw error;
  }
  return { url, state, start, kill, cron, dispose };
}
