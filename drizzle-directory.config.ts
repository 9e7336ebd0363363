import { defineConfig } from "drizzle-kit";

// The DIRECTORY database (where each workspace lives, and what is found before the workspace is
// known), generated apart from DB's: `npm run db:generate:directory`.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/directory/schema.ts",
  out: "./migrations-directory",
});
