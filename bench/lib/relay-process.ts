/**
 * The relay as production runs it, a process of its own (smtp-relay/src/main.ts), so its memory
 * can be read from the kernel (VmRSS) without the benchmark's own heap mixed in.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { ROOT } from "../../scripts/lib/wrangler";
import { freePort } from "./port";
import { sleep } from "./process-group";

export interface RelayProcess {
  port: number;
  rssBytes(): number;
  stop(): Promise<void>;
}

export async function startRelayProcess(env: Record<string, string>): Promise<RelayProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", join(ROOT, "smtp-relay", "src", "main.ts")],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env, SMTP_PORT: String(port), SMTP_HOST: "127.0.0.1" },
    },
  );
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 30_000;
  while (!output.includes("listening")) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`the relay did not start:\n${output}`);
    await sleep(100);
  }
  return {
    port,
    rssBytes() {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await Promise.race([new Promise((resolve) => child.once("exit", resolve)), sleep(10_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

/** `count` connections that got the greeting and then say nothing. */
export async function idleConnections(port: number, count: number): Promise<Socket[]> {
  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("error", reject);
      socket.once("data", () => resolve(socket));
    });
  const sockets: Socket[] = [];
  // In slices, so the listen backlog is never the limit being measured.
  for (let i = 0; i < count; i += 50) {
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, count - i) }, open))));
  }
  return sockets;
}
