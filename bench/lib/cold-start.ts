/**
 * A fresh isolate's first answer: workerd (the runtime Cloudflare runs, the very binary wrangler
 * uses) is spawned on a config that serves one Worker script, and the clock runs from the spawn to
 * the first 200 of GET /health. That covers the process start, the script's compile and top-level
 * run (the app's routes and OpenAPI document are built there) and the first request. The same
 * measure of an empty Worker gives the runtime's own share; what the bundle adds is the difference.
 * No bindings but one variable: /health touches none, and a binding's setup is the runtime's, not
 * the script's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { freePort } from "./port";
import { sleep } from "./process-group";

/** The workerd of the wrangler this checkout runs (wrangler's own dependency, not a second copy). */
function workerdBinary(): string {
  const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler"));
  return (fromWrangler("workerd") as { default: string }).default;
}

/** What `wrangler dev` adds to a local workerd for `cloudflare:email`, which production has built in. */
const EMAIL_MODULE =
  "class EmailMessage { constructor(from, to, raw) { Object.assign(this, { from, to, raw }); } }\nexport default { EmailMessage };\n";

/** An empty Worker with the classes wrangler.toml names, for the runtime's own start-up. */
export const EMPTY_WORKER = `import { DurableObject, WorkflowEntrypoint } from "cloudflare:workers";
export class KeyGuard extends DurableObject {}
export class EnrollmentWorkflow extends WorkflowEntrypoint { async run() {} }
export default { fetch: () => Response.json({ status: "ok" }) };
`;

const READY_TIMEOUT_MS = 30_000;

function config(script: string, port: number, compatibilityDate: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
  extensions = [ (modules = [ (name = "cloudflare-internal:email", esModule = embed "email.js", internal = true) ]) ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "index.js", esModule = embed "${script}") ],
  compatibilityDate = "${compatibilityDate}",
  bindings = [ (name = "ENVIRONMENT", text = "development") ],
);
`;
}

export interface ColdStart {
  /** Wall time from the spawn to the first 200: what a first caller waits, load included. */
  wallMs: number;
  /**
   * The CPU time workerd used until then, all threads (Linux's /proc, in 10 ms ticks; undefined
   * elsewhere): the work itself, which other load on the machine does not inflate as it does wall time.
   */
  cpuMs: number | undefined;
}

/** USER_HZ, the unit of /proc/<pid>/stat's times: 100 on every Linux architecture in use. */
const TICK_MS = 10;

function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Spawns workerd on `script` (a file in `dir`) and times it to its first 200 of GET /health. */
export async function coldStart(dir: string, script: string, compatibilityDate: string): Promise<ColdStart> {
  const port = await freePort();
  writeFileSync(join(dir, "email.js"), EMAIL_MODULE);
  const file = join(dir, `${script}.capnp`);
  writeFileSync(file, config(script, port, compatibilityDate));
  const started = performance.now();
  const child = spawn(workerdBinary(), ["serve", file], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  try {
    while (performance.now() - started < READY_TIMEOUT_MS) {
      if (child.exitCode !== null) throw new Error(`workerd exited on ${script}: ${stderr.slice(0, 500)}`);
      if (await answersHealth(port))
        return { wallMs: performance.now() - started, cpuMs: cpuMsOf(child.pid) };
      await sleep(2);
    }
    throw new Error(`workerd did not answer GET /health on ${script} within ${READY_TIMEOUT_MS / 1000} s`);
  } finally {
    await stop(child);
  }
}

async function answersHealth(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false; // Not listening yet.
  }
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGKILL");
  await once(child, "exit");
}
