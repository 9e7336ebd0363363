/**
 * npm run workspace:move -- <account id> <shard> [--remote --url https://api.example.com]
 * Moves a running workspace to another shard through the running Worker's operator routes
 * (OPS_TOKEN): starts the move (its writes are frozen: 503 with Retry-After), then runs its bounded
 * steps one after the other until it is done. Stopped at any point, the command can be run again:
 * it resumes the move, or finds it rolled back (the freeze ran out: the workspace stayed whole
 * where it was) and starts it again.
 */
import { opsCommand } from "./lib/ops";

const { positionals, baseUrl, opsToken } = opsCommand("npm run workspace:move -- <account id> <shard>", 2);
const [accountId, shard] = positionals as [string, string];

interface MoveState {
  step: string;
  wait_ms: number;
  detail: string;
}

async function post(path: string, body?: unknown): Promise<MoveState> {
  const response = await fetch(
    `${baseUrl}/_ops/workspaces/${encodeURIComponent(accountId as string)}${path}`,
    {
      method: "POST",
      headers: {
        Authorization: `Bearer ${opsToken}`,
        ...(body ? { "Content-Type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    },
  );
  const text = await response.text();
  if (!response.ok) {
    console.error(`${path || "start"} failed (${response.status}): ${text}`);
    process.exit(1);
  }
  return JSON.parse(text) as MoveState;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let state = await post("/move", { shard });
console.log(`${state.step}: ${state.detail}`);
let last = "";
for (;;) {
  if (state.wait_ms > 0) await sleep(state.wait_ms);
  state = await post("/move/step");
  const line = `${state.step}: ${state.detail}`;
  if (state.step !== last || state.step !== "copying") console.log(line);
  last = state.step;
  if (state.step === "done") process.exit(0);
  if (state.step === "aborted") {
    console.error(
      "The move was rolled back; the workspace is whole on its shard. Run the command again to retry.",
    );
    process.exit(1);
  }
}
