/**
 * npm start: prepares a fresh checkout and serves it.
 * 1. writes .dev.vars with random secrets if missing; 2. copies the docs assets; 3. applies the
 * local D1 migrations of every database in wrangler.toml (the directory, every shard, LOGS for
 * request logs), all in one local runtime (lib/local-migrations.ts) that then serves the SQL of
 * step 4; 4. creates a development workspace, admin key and owner user on first run (kept in
 * .wrangler/dev-workspace.json), with DEV_DOMAIN connected and verified, and prints them with a
 * fresh sign-in link each start; 5. runs `wrangler dev` on 127.0.0.1:$PORT (with PUBLIC_BASE_URL
 * on that port unless the user set one) and the SMTP relay (smtp-relay/) on 127.0.0.1:$SMTP_PORT,
 * forwarding to it. Both stop together. 6. fires the minute cron while it serves.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildAssets } from "./build-assets";
import { ensureDevVars, ensureRelayToken, publicBaseUrlArgs, readDevVar } from "./lib/dev-vars";
import { backfillDirectory } from "./lib/directory-backfill";
import { migrateAll } from "./lib/local-migrations";
import { DEFAULT_OWNER_EMAIL, freshLoginLink, ownerSql, signInBaseUrl, userIsActive } from "./lib/people";
import { shardOfWorkspace } from "./lib/placement";
import { executeSql, withLocalSql } from "./lib/sql";
import { type CreatedWorkspace, createWorkspace, ensureConnection, keyIsActive } from "./lib/workspace";
import { ROOT, sqlText, WRANGLER } from "./lib/wrangler";

const PORT = Number(process.env.PORT ?? 8787);
const SMTP_PORT = Number(process.env.SMTP_PORT ?? 2587);
const WORKSPACE_FILE = join(ROOT, ".wrangler", "dev-workspace.json");
/**
 * Verified at once on the local database (nothing to publish), so inboxes can be made and mail
 * sent from it; reserved for examples (RFC 2606), and the local transport only captures mail.
 */
const DEV_DOMAIN = "example.com";

const baseUrl = signInBaseUrl("local", PORT);

type SavedWorkspace = Omit<CreatedWorkspace, "login_url">;

async function ensureDevWorkspace(): Promise<{ workspace: CreatedWorkspace; created: boolean }> {
  const domain = { name: DEV_DOMAIN, encryptionKey: readDevVar("ENCRYPTION_KEY") ?? "" };
  if (existsSync(WORKSPACE_FILE)) {
    const file = JSON.parse(readFileSync(WORKSPACE_FILE, "utf8")) as Omit<SavedWorkspace, "shard">;
    // Saved before workspaces had shards: the directory knows (the backfill named it in DB).
    const saved = { ...file, shard: await shardOfWorkspace(file.account_id, "local") };
    if (await keyIsActive(saved.key_id, "local", saved.shard)) {
      await ensureConnection(saved.account_id, domain, "local", saved.shard);
      const owner = await ensureOwner(saved);
      return {
        workspace: {
          ...owner,
          login_url: await freshLoginLink(owner.account_id, owner.user_id, baseUrl, "local", owner.shard),
        },
        created: false,
      };
    }
  }
  const workspace = await createWorkspace(
    { name: "Development workspace", plan: "free", overrides: {}, domain, baseUrl },
    "local",
  );
  save(workspace);
  return { workspace, created: true };
}

function save({ login_url: _link, ...workspace }: SavedWorkspace & { login_url?: string }) {
  writeFileSync(WORKSPACE_FILE, `${JSON.stringify(workspace, null, 2)}\n`, { mode: 0o600 });
}

/** A workspace saved before people existed (or whose owner was removed) gets its owner now. */
async function ensureOwner(saved: SavedWorkspace): Promise<SavedWorkspace> {
  if (saved.user_id && (await userIsActive(saved.user_id, "local", saved.shard))) return saved;
  const owner = ownerSql(saved.account_id, DEFAULT_OWNER_EMAIL, Date.now());
  await executeSql(owner.directorySql, "local", "DIRECTORY");
  await executeSql(owner.sql.replace("INSERT INTO", "INSERT OR IGNORE INTO"), "local", saved.shard);
  const [found] = await executeSql(
    `SELECT id FROM users WHERE account_id = ${sqlText(saved.account_id)} AND email = ${sqlText(DEFAULT_OWNER_EMAIL)};`,
    "local",
    saved.shard,
  );
  const withOwner = { ...saved, user_id: String(found?.results[0]?.id ?? owner.userId) };
  save(withOwner);
  return withOwner;
}

function banner({ workspace, created }: { workspace: CreatedWorkspace; created: boolean }): string {
  const base = `http://127.0.0.1:${PORT}`;
  return [
    "",
    created
      ? "Created a development workspace."
      : "Development workspace (saved in .wrangler/dev-workspace.json):",
    `  account:  ${workspace.account_id}   (in shard ${workspace.shard})`,
    `  API key:  ${workspace.token}   (admin)`,
    `  Domain:   ${DEV_DOMAIN}   (verified: send from it and make inboxes on it)`,
    `  sign in:  ${workspace.login_url}   (owner ${DEFAULT_OWNER_EMAIL}; one use, 15 minutes, fresh each start)`,
    `  dashboard: ${base}/dashboard   (open the sign-in link above first; it lands there)`,
    `  mailbox:  ${base}/_dev/mailbox   (every email the service sent: invitations and links asked for at /login too)`,
    "",
    "Try it:",
    `  curl -H "Authorization: Bearer ${workspace.token}" ${base}/v1/accounts`,
    `  API docs: ${base}/docs`,
    `  SMTP relay: 127.0.0.1:${SMTP_PORT}, STARTTLS (self-signed), user apikey, password the API key`,
    "",
  ].join("\n");
}

if (ensureDevVars()) console.log("Wrote .dev.vars with fresh secrets.");
else if (ensureRelayToken()) console.log("Added RELAY_TOKEN to .dev.vars for the SMTP relay.");
buildAssets();
// One local runtime for the migrations and every statement after them.
const workspace = await withLocalSql(async (databases) => {
  await migrateAll(databases);
  // State from before the directory existed: its workspaces, keys, people and inbox addresses are
  // named there (idempotent).
  await backfillDirectory("local");
  return ensureDevWorkspace();
});

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
    ...publicBaseUrlArgs(PORT),
  ],
  { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
);

/**
 * `wrangler dev` never fires cron triggers by itself (`--test-scheduled` only opens /__scheduled),
 * yet the minute cron is what sends scheduled email, resumes campaigns, takes back the emails and
 * webhook deliveries of a Worker that died mid-send, and dispatches events the Queue lost. So this
 * fires it as production's trigger does: at once when the server is ready (work a crash or a stop
 * left behind), then every minute. A failed call (wrangler reloading) waits for the next minute.
 */
const CRON_EVERY_MS = 60_000;
const runMinuteCron = () => {
  fetch(`http://127.0.0.1:${PORT}/__scheduled?cron=*+*+*+*+*`)
    .then((res) => res.body?.cancel())
    .catch(() => {});
};
let cronTimer: NodeJS.Timeout | undefined;

// Print the key once the server is actually listening, so it is not lost in wrangler's start-up output.
let announced = false;
dev.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && chunk.toString().includes("Ready on")) {
    announced = true;
    console.log(banner(workspace));
    runMinuteCron();
    cronTimer = setInterval(runMinuteCron, CRON_EVERY_MS);
  }
});

// The relay beside the API: it reaches the Worker over loopback and records SMTP logs with RELAY_TOKEN.
const relay = spawn(process.execPath, ["--import", "tsx", join(ROOT, "smtp-relay", "src", "main.ts")], {
  cwd: ROOT,
  stdio: ["ignore", "inherit", "inherit"],
  env: {
    ...process.env,
    SMTP_PORT: String(SMTP_PORT),
    SMTP_HOST: "127.0.0.1",
    RELAY_API_URL: `http://127.0.0.1:${PORT}`,
    RELAY_TOKEN: readDevVar("RELAY_TOKEN") ?? "",
  },
});

// One goes, both go: a signal reaches both, and either one exiting stops the other.
const children = [dev, relay];
let exiting = false;
const stopAll = (signal: NodeJS.Signals) => {
  clearInterval(cronTimer);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    exiting = true;
    stopAll(signal);
  });
}
let running = children.length;
for (const child of children) {
  child.on("exit", (code, signal) => {
    if (!exiting) {
      exiting = true;
      process.exitCode = code ?? (signal ? 0 : 1);
      stopAll("SIGTERM");
    }
    running -= 1;
    if (running === 0) process.exit();
  });
}
