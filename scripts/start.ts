/**
 * npm start: prepares a fresh checkout and serves it.
 * 1. writes .dev.vars with random secrets if missing; 2. copies the docs assets; 3. applies the
 * local D1 migrations; 4. creates a development workspace and admin key on first run (kept in
 * .wrangler/dev-workspace.json) and prints it; 5. runs `wrangler dev` on 127.0.0.1:$PORT.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildAssets } from "./build-assets";
import { ensureDevVars } from "./lib/dev-vars";
import { type CreatedWorkspace, createWorkspace, keyIsActive } from "./lib/workspace";
import { ROOT, runWrangler, WRANGLER } from "./lib/wrangler";

const PORT = Number(process.env.PORT ?? 8787);
const WORKSPACE_FILE = join(ROOT, ".wrangler", "dev-workspace.json");

async function ensureDevWorkspace(): Promise<{ workspace: CreatedWorkspace; created: boolean }> {
  if (existsSync(WORKSPACE_FILE)) {
    const saved = JSON.parse(readFileSync(WORKSPACE_FILE, "utf8")) as CreatedWorkspace;
    if (keyIsActive(saved.key_id, "local")) return { workspace: saved, created: false };
  }
  const workspace = await createWorkspace(
    { name: "Development workspace", plan: "free", overrides: {} },
    "local",
  );
  writeFileSync(WORKSPACE_FILE, `${JSON.stringify(workspace, null, 2)}\n`, { mode: 0o600 });
  return { workspace, created: true };
}

function banner({ workspace, created }: { workspace: CreatedWorkspace; created: boolean }): string {
  const base = `http://127.0.0.1:${PORT}`;
  return [
    "",
    created
      ? "Created a development workspace."
      : "Development workspace (saved in .wrangler/dev-workspace.json):",
    `  account:  ${workspace.account_id}`,
    `  API key:  ${workspace.token}   (admin)`,
    "",
    "Try it:",
    `  curl -H "Authorization: Bearer ${workspace.token}" ${base}/v1/accounts`,
    `  API docs: ${base}/docs`,
    "",
  ].join("\n");
}

if (ensureDevVars()) console.log("Wrote .dev.vars with fresh secrets.");
buildAssets();
runWrangler(["d1", "migrations", "apply", "DB", "--local"]);
const workspace = await ensureDevWorkspace();

const dev = spawn(
  WRANGLER,
  [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(PORT),
    "--test-scheduled",
    "--show-interactive-dev-session=false",
  ],
  { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
);

// Print the key once the server is actually listening, so it is not lost in wrangler's start-up output.
let announced = false;
dev.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes("Ready on")) {
    announced = true;
    console.log(banner(workspace));
  }
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => dev.kill(signal));
}
dev.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
