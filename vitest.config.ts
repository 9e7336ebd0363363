import { defineConfig } from "vitest/config";
import { LONG_FILES, LongFilesFirst } from "./test/support/long-files-first.js";
import { testQueueConsumers } from "./test/support/queue-consumers.js";
import { releaseWhenDonePlugin } from "./test/support/release-when-done.js";
import "./test/support/provided-context.js";
import { trustedTestTls } from "./test/support/trust-test-ca.js";

/** Fixed secrets for tests only; real deployments set their own with `wrangler secret put`. */
export const TEST_SECRETS = {
  ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=",
  OPS_TOKEN: "ops_test_token_for_the_operator_routes",
  RELAY_TOKEN: "rly_test_token_for_the_relay_routes",
};

/**
 * Most of a test file's time is spent waiting (queues, SMTP, polling, processes it started), not
 * computing, so more files run at once than there are cores (Vitest's default is one fewer than the
 * cores: one file at a time on a 2-core machine). The node, browser and relay files share the
 * servers their setups start (`wrangler dev`, Chromium) and run three at a time: at two, the cores
 * were a quarter idle while they ran (a browser file mostly waits on its pages), and the three
 * projects took 88.5 s against 78.6 s at three, for the same 127 CPU-s (2026-11-30). Four took 3 s
 * less in one run, in which the load failed a timing test (mended since, not tried again). A
 * project with its own `maxWorkers` needs a group of its own, and groups run one after the other.
 *
 * They run with `isolate: false`, like the Workers files: one Node fork per slot runs file after
 * file instead of a fork started per file (Vitest's own hint counted 44 forks at ~0.17 s each); no
 * file of theirs changes `process.env`, mocks a module or keeps state in a shared helper. The three
 * projects took 161 → 143 CPU-s and 107 → 100 s together (2026-11-30).
 *
 * The two longest server files (`LONG_FILES`: the crash test and dev-commands, minutes of waiting
 * on leases and a workspace move's settling) run in the Workers files' group instead, five files at
 * a time there: they start first and the Workers files fill the cores their waits leave idle.
 */
const PROCESS_TESTS = { maxWorkers: 3, sequence: { groupOrder: 0 }, isolate: false };
const WORKERD_TESTS = { maxWorkers: 5, sequence: { groupOrder: 1 } };

export default defineConfig(async () => {
  // The SMTP client tests speak TLS to a loopback server whose certificate a test CA signed. Miniflare
  // reads the extra CAs once, when it is first imported, so the plugin is imported only after this.
  const testTls = await trustedTestTls();
  const { cloudflareTest, readD1Migrations } = await import("@cloudflare/vitest-plugin");
  // Every D1 database wrangler.toml declares (directory, shards, logs) with its migrations.
  const { d1Databases } = await import("./scripts/lib/databases.js");
  const databases = d1Databases();
  const migrationsByBinding = Object.fromEntries(
    await Promise.all(
      databases.map(async ({ binding, migrationsDir }) => [binding, await readD1Migrations(migrationsDir)]),
    ),
  );
  return {
    test: {
      // The crash and dev-commands tests first: each runs minutes beside the other files.
      sequence: { sequencer: LongFilesFirst },
      projects: [
        {
          plugins: [
            cloudflareTest(({ inject }) => ({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // wrangler.toml's consumers with a batch window of 0.1 s (test/support/queue-consumers.ts).
                queueConsumers: testQueueConsumers(),
                bindings: {
                  ...TEST_SECRETS,
                  ENVIRONMENT: "test",
                  TEST_MIGRATIONS: migrationsByBinding,
                  SMTP_TEST: { ...inject("smtpTest") },
                  DOH_TEST_URL: inject("dohUrl"),
                  DOH_RESOLVER_URL: `${inject("dohUrl")}/dns-query`,
                  WEBHOOK_TEST_URL: inject("webhookUrl"),
                },
              },
            })),
          ],
          test: {
            name: "workers",
            ...WORKERD_TESTS,
            include: ["test/workers/**/*.test.ts"],
            // One workerd per pool worker, reused for every file it runs, instead of one started per
            // file (~1 s each). Storage is therefore shared across files: tests make their own accounts.
            isolate: false,
            // Four workerd processes share the cores, so a heavy test (100,000 rows, bursts) can pass 5 s.
            testTimeout: 20_000,
            setupFiles: ["test/workers/apply-migrations.ts"],
            globalSetup: [
              "test/support/smtp-global-setup.ts",
              "test/support/doh-global-setup.ts",
              "test/support/webhook-global-setup.ts",
            ],
            provide: { testTls },
          },
        },
        {
          test: {
            name: "node",
            ...PROCESS_TESTS,
            include: ["test/node/**/*.test.ts"],
            exclude: LONG_FILES,
            environment: "node",
            testTimeout: 60_000,
          },
        },
        {
          test: {
            name: "node-long",
            ...WORKERD_TESTS,
            include: LONG_FILES,
            environment: "node",
            testTimeout: 60_000,
          },
        },
        {
          plugins: [releaseWhenDonePlugin()],
          test: {
            name: "browser",
            ...PROCESS_TESTS,
            include: ["test/browser/**/*.test.ts"],
            environment: "node",
            // One real Worker (wrangler dev) and one Chromium serve every browser test.
            globalSetup: ["test/browser/support/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // A poll waits for a page to answer a click; on a loaded 2-core machine (the Workers files
            // run beside these) a form's POST and the page it renders took over Vitest's default 1 s.
            expect: { poll: { timeout: 10_000 } },
          },
        },
        {
          plugins: [releaseWhenDonePlugin()],
          test: {
            name: "smtp-relay",
            ...PROCESS_TESTS,
            include: ["smtp-relay/test/**/*.test.ts"],
            environment: "node",
            // One real Worker (wrangler dev) serves every relay test; starting it takes a while.
            globalSetup: ["smtp-relay/test/support/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
          },
        },
      ],
    },
  };
});
