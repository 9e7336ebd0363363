import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
// Tests that call the repos directly (sweeps, recordOpen, reports) record delivery outcomes like the
// worker does, which registers the same listeners from src/index.ts.
import "../../src/jobs/outcome-listeners";

/**
 * Setup files run again before every file, while the workerd (its storage and its globals) serves
 * file after file (`isolate: false`): the migrations are applied once per workerd, the first time.
 * Checking again cost eight D1 calls, about 9 ms, before each of the 228 files.
 */
const MIGRATED = Symbol.for("test.migrations-applied");
const scope = globalThis as { [MIGRATED]?: true };
if (!scope[MIGRATED]) {
  for (const [binding, migrations] of Object.entries(env.TEST_MIGRATIONS)) {
    await applyD1Migrations(
      (env as unknown as Record<string, D1Database>)[binding] as D1Database,
      migrations,
    );
  }
  scope[MIGRATED] = true;
}
