import { defineConfig } from "drizzle-kit";

// The LOGS database (request logs), generated apart from DB's: `npm run db:generate:logs`.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/logs/schema.ts",
  out: "./migrations-logs",
});
