import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
// Tests that call the repos directly (sweeps, recordOpen, reports) record delivery outcomes like the
// worker does, which registers the same listeners from src/index.ts.
import "../../src/jobs/outcome-listeners";

// Setup files run outside per-file storage isolation and may run more than once; applying is idempotent.
for (const [binding, migrations] of Object.entries(env.TEST_MIGRATIONS)) {
  await applyD1Migrations((env as unknown as Record<string, D1Database>)[binding] as D1Database, migrations);
}
