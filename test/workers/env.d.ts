import type { D1Migration } from "@cloudflare/vitest-plugin";

declare global {
  namespace Cloudflare {
    interface Env {
      /** Each D1 binding of wrangler.toml (directory, shards, logs) → its migrations. */
      TEST_MIGRATIONS: Record<string, D1Migration[]>;
    }
  }
}
