/**
 * Once per run of the browser tests: a real Worker (`wrangler dev`, development mode, its own
 * throwaway state) with a seeded workspace and owner, and the Chromium to drive. Without a
 * Chromium the Worker is not started and the tests are skipped with one loud line.
 */
import { chromium as playwright } from "playwright-core";
import type { TestProject } from "vitest/node";
import { memberEmailSql } from "../../../scripts/lib/people";
import { workspaceSql } from "../../../scripts/lib/workspace";
import { startWorker, WORKER_SECRETS } from "../../../smtp-relay/test/support/running-worker";
import { randomBase64Url, sha256Hex } from "../../../src/lib/crypto";
import { newId } from "../../../src/lib/ids";
import { releaseWhenDone } from "../../support/release-when-done";
import { chromiumPath, SKIPPED_LINE } from "./chromium";
import type { BrowserTestContext } from "./context";

const OWNER = "owner@example.com";

export default async function setup(project: TestProject) {
  const chromium = chromiumPath();
  if (!chromium) {
    console.warn(
      `\n${"=".repeat(SKIPPED_LINE.length)}\n${SKIPPED_LINE}\n${"=".repeat(SKIPPED_LINE.length)}\n`,
    );
    project.provide("browser", {
      workerUrl: "",
      loginPath: "",
      ownerEmail: OWNER,
      accountId: "",
      apiKey: "",
      sessions: { owner: "", admin: "", agent: "" },
      chromium: null,
      browserEndpoint: "",
    });
    return;
  }
  const { sql, directorySql, workspace } = await workspaceSql(
    {
      name: "Browser workspace",
      plan: "enterprise",
      overrides: { requests_per_minute: 100_000 },
      domain: { name: "example.com", encryptionKey: WORKER_SECRETS.ENCRYPTION_KEY },
      baseUrl: "http://127.0.0.1",
      // The second shard: the dashboard finds its workspace through the directory.
      shard: "DB_2",
    },
    "local",
  );
  const people = await peopleSql(workspace.account_id, workspace.user_id);
  const worker = await startWorker(
    { db: `${sql}\n${people.sql}`, shard: "DB_2", directory: `${directorySql}\n${people.directorySql}` },
    { ENVIRONMENT: "development" },
  );
  // One Chromium for every file, as Playwright's own runner keeps one per worker: each file
  // connects and works in contexts of its own (cookies, storage and pages apart), and closing its
  // connection closes them. A launch per file cost about 0.3 CPU-s more than a connection.
  const server = await playwright
    .launchServer({ executablePath: chromium, args: ["--no-sandbox"] })
    .catch(async (error: unknown) => {
      await worker.stop();
      throw error;
    });
  const context: BrowserTestContext = {
    workerUrl: worker.url,
    loginPath: new URL(workspace.login_url).pathname,
    ownerEmail: OWNER,
    accountId: workspace.account_id,
    apiKey: workspace.token,
    sessions: people.sessions,
    chromium,
    browserEndpoint: server.wsEndpoint(),
  };
  project.provide("browser", context);
  // Stopped once the last browser file ends, not when the whole run does (release-when-done.ts).
  return releaseWhenDone(project, async () => {
    await server.close();
    await worker.stop();
  });
}

/**
 * An admin and an agent beside the owner, and a 14-day session for each of the three: the rows of
 * `DB` (`sql`) and the directory's names of the two emails and three sessions (`directorySql`).
 */
async function peopleSql(accountId: string, ownerId: string) {
  const now = Date.now();
  const expiresAt = now + 14 * 86_400_000;
  const users = { owner: ownerId, admin: newId("usr"), agent: newId("usr") };
  const lines = (["admin", "agent"] as const).map(
    (role) =>
      `INSERT INTO users (id, account_id, email, name, role, status, created_at, updated_at) VALUES ('${users[role]}', '${accountId}', '${role}@example.com', '${role === "admin" ? "Ada Admin" : "Alan Agent"}', '${role}', 'active', ${now}, ${now});`,
  );
  const named = (["admin", "agent"] as const).map((role) => memberEmailSql(`${role}@example.com`, accountId));
  const sessions = { owner: "", admin: "", agent: "" };
  for (const role of ["owner", "admin", "agent"] as const) {
    sessions[role] = randomBase64Url(32);
    const hash = await sha256Hex(sessions[role]);
    lines.push(
      `INSERT INTO sessions (token_hash, account_id, user_id, expires_at, created_at) VALUES ('${hash}', '${accountId}', '${users[role]}', ${expiresAt}, ${now});`,
    );
    named.push(
      `INSERT INTO session_hashes (token_hash, account_id, expires_at) VALUES ('${hash}', '${accountId}', ${expiresAt});`,
    );
  }
  return { sql: lines.join("\n"), directorySql: named.join("\n"), sessions };
}
