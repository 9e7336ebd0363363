import { defineConfig } from "drizzle-kit";

// drizzle-kit only generates SQL here; wrangler applies it (`wrangler d1 migrations apply`).
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema/*.ts",
  out: "./migrations",
});
