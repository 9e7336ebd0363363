/**
 * Once per run of the browser tests: a real Worker (`wrangler dev`, development mode, its own
 * throwaway state) with a seeded workspace and owner, and the Chromium to drive. Without a
 * Chromium the Worker is not started and the tests are skipped with one loud line.
 */
import type { TestProject } from "vitest/node";
import { workspaceSql } from "../../../scripts/lib/workspace";
import { startWorker, WORKER_SECRETS } from "../../../smtp-relay/test/support/running-worker";
import { chromiumPath, SKIPPED_LINE } from "./chromium";
import type { BrowserTestContext } from "./context";

const OWNER = "owner@example.com";

export default async function setup(project: TestProject) {
  const chromium = chromiumPath();
  if (!chromium) {
    console.warn(
      `\n${"=".repeat(SKIPPED_LINE.length)}\n${SKIPPED_LINE}\n${"=".repeat(SKIPPED_LINE.length)}\n`,
    );
    project.provide("browser", { workerUrl: "", loginPath: "", ownerEmail: OWNER, chromium: null });
    return;
  }
  const { sql, workspace } = await workspaceSql(
    {
      name: "Browser workspace",
      plan: "enterprise",
      overrides: { requests_per_minute: 100_000 },
      domain: { name: "example.com", encryptionKey: WORKER_SECRETS.ENCRYPTION_KEY },
      baseUrl: "http://127.0.0.1",
    },
    "local",
  );
  const worker = await startWorker(sql, { ENVIRONMENT: "development" });
  const context: BrowserTestContext = {
    workerUrl: worker.url,
    loginPath: new URL(workspace.login_url).pathname,
    ownerEmail: OWNER,
    chromium,
  };
  project.provide("browser", context);
  return () => worker.stop();
}
