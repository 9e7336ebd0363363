import { createRequire } from "node:module";

/**
 * wrangler's JavaScript API (`getPlatformProxy`, its SQL splitter), loaded with `require()`.
 *
 * Why not `import`: wrangler is one 10 MB CommonJS file. Imported from an ES module, Node first
 * parses it whole to find its named exports, and under `tsx` (every script here) the loader's
 * hooks inspect it again: loading it that way cost 3.0 to 3.2 CPU-seconds against 1.8 to 2.0 with
 * `require()` (2026-11-30), paid by each `npm start`, `bootstrap` and test that opens a local runtime.
 */
const wrangler = createRequire(import.meta.url)("wrangler") as typeof import("wrangler");

export const { getPlatformProxy, unstable_splitSqlQuery } = wrangler;
