/**
 * Where a local server's time goes: the CPU time its processes used (from /proc, so it counts
 * workerd's own threads, D1's SQLite and the queue too, not only our JavaScript), and a sampling
 * profile of the worker isolate over the devtools protocol. Hand-written because no library here
 * drives workerd's inspector; it is the few protocol calls below.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import WebSocket from "ws";

/** CPU milliseconds used so far by each command of a process group (user + system). */
export function groupCpuMs(processGroup: number): Map<string, number> {
  const used = new Map<string, number>();
  const lines = execFileSync("ps", ["-o", "pid=,comm=", "-g", String(processGroup)]).toString();
  for (const line of lines.trim().split("\n")) {
    const [pid, command = "?"] = line.trim().split(/\s+/);
    try {
      // Fields after the command: utime and stime are the 12th and 13th, in clock ticks (10 ms).
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      used.set(command, (used.get(command) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // The process ended between ps and the read: its time is gone with it.
    }
  }
  return used;
}

export function cpuSince(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([command, ms]) => [command, ms - (before.get(command) ?? 0)]));
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; scriptId: string };
  children?: number[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A devtools session with the first target of workerd's inspector (the worker under test). */
export async function openInspector(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets[0];
  if (!target) throw new Error(`no devtools target on port ${port}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let lastId = 0;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? message.error);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const id = ++lastId;
      waiting.set(id, resolve as (result: unknown) => void);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    startProfile: async () => {
      await send("Profiler.enable");
      await send("Profiler.setSamplingInterval", { interval: 200 });
      await send("Profiler.start");
    },
    stopProfile: async () => (await send<{ profile: CpuProfile }>("Profiler.stop")).profile,
    /** The source of each script the profile names, so anonymous functions can be shown by their line. */
    sourcesOf: async (profile: CpuProfile) => {
      await send("Debugger.enable");
      const sources = new Map<string, string[]>();
      for (const id of new Set(profile.nodes.map((n) => n.callFrame.scriptId))) {
        if (id === "0") continue;
        const answer = await send<{ scriptSource?: string }>("Debugger.getScriptSource", { scriptId: id });
        sources.set(id, (answer.scriptSource ?? "").split("\n"));
      }
      return sources;
    },
    close: () => socket.close(),
  };
}

const share = (part: number, whole: number) => `${((100 * part) / (whole || 1)).toFixed(1).padStart(5)}%`;

/**
 * The functions that took the most time themselves, and the most inclusive (with everything they
 * called, counted once per sample), as shares of the sampled time (idle included, and named).
 */
export function summarizeProfile(profile: CpuProfile, sources: Map<string, string[]>, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...selfTime.values()].reduce((sum, t) => sum + t, 0);

  // The bundle's anonymous functions (middleware, handlers) are told apart by their first line.
  const label = (node: ProfileNode) => {
    const { functionName, url, lineNumber, scriptId } = node.callFrame;
    if (!url) return functionName || "(anonymous)";
    const line = sources.get(scriptId)?.[lineNumber]?.trim().slice(0, 70) ?? "";
    return `${functionName || "(anonymous)"} ${url.split("/").slice(-1)[0]}:${lineNumber + 1}  ${line}`;
  };
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = byId.get(id);
    if (!node) continue;
    self.set(label(node), (self.get(label(node)) ?? 0) + time);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame?.callFrame.url) continue;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + time);
    }
  }
  const list = (times: Map<string, number>) =>
    [...times]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => `${share(time, total)}  ${name}`);
  return [
    `sampled ${(total / 1000).toFixed(0)} ms of the worker isolate`,
    "-- self time",
    ...list(self),
    "-- inclusive time (our code and the runtime's JavaScript)",
    ...list(inclusive),
  ].join("\n");
}
