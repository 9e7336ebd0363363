/**
 * Stopping `wrangler dev` means stopping the workerd and esbuild processes it starts too; they share
 * the process group it leads (it is spawned detached), so every signal goes to the whole group.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";

// wrangler needs about 2 s to shut workerd down; more on a loaded machine.
const STOP_GRACE_MS = 10_000;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Lets the group shut down cleanly, then kills whatever is left of it. */
export async function stopGroup(child: ChildProcess): Promise<void> {
  const group = leaderPid(child);
  signalGroup(group, "SIGTERM");
  const deadline = Date.now() + STOP_GRACE_MS;
  while (groupAlive(group) && Date.now() < deadline) await sleep(100);
  signalGroup(group, "SIGKILL");
  // Reap the leader before the caller may exit, so it is not left behind as a zombie.
  if (!hasExited(child)) await Promise.race([once(child, "exit"), sleep(2_000)]);
}

/** For the `exit` event, where nothing asynchronous runs any more. */
export function killGroupNow(child: ChildProcess): void {
  signalGroup(leaderPid(child), "SIGKILL");
}

function leaderPid(child: ChildProcess): number {
  if (child.pid === undefined) throw new Error("the child process never started");
  return child.pid;
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // ESRCH: the whole group is already gone.
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}
