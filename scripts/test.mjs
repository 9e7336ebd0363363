/**
 * `npm test`: the checks (type checks, bindings, lint) and every Vitest file (the dependency rules
 * among them), at the same time. Vitest's first minute starts real servers (wrangler dev,
 * Chromium) and waits on them, leaving part of the two cores idle: the checks, each
 * single-threaded, fill it (on a fresh clone they took 45 s before the tests, 2026-11-30).
 * Vitest's output streams as usual; the checks' output is held back and printed whole after it,
 * so that it never breaks Vitest's lines. Fails if either failed. Arguments go to Vitest
 * (`npm test -- --reporter=json ...`).
 *
 * Plain JavaScript: it starts in a few milliseconds, with no loader.
 */
import { spawn } from "node:child_process";
import { resolve as resolvePath } from "node:path";

/**
 * `npm run lint:deps` is not among them: `test/node/dependency-rules.test.ts` cruises the real src
 * with the same rules and fails on any violation, warnings included, which is stricter than the
 * command's exit status. Running both cruised src twice (about 4 CPU-s each).
 */
const CHECKS = ["typecheck:worker", "typecheck:node", "typecheck:bindings", "lint"];

const shell = process.platform === "win32";

/**
 * Node's on-disk compile cache (Node 22.1+) for every Node process of the run: Vitest's forks,
 * each `wrangler` command line (a 10 MB script compiled again by every `wrangler dev` start), the
 * checks. The first process to compile a file writes its code cache; the others read it. Kept in
 * node_modules/.cache, so a fresh clone starts cold and warms within its first run. V8 checks
 * each entry against the file's contents and its own version, so a stale entry is never used.
 */
const env = {
  ...process.env,
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? resolvePath("node_modules/.cache/node-compile-cache"),
};

function checks() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/run-parallel.mjs", ...CHECKS], {
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => resolve({ code: 1, output: String(error) }));
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString().trimEnd() }),
    );
  });
}

function vitest(args) {
  return new Promise((resolve) => {
    const child = spawn(shell ? "npx.cmd" : "npx", ["vitest", "run", ...args], {
      stdio: "inherit",
      shell,
      env,
    });
    child.on("error", () => resolve(1));
    child.on("close", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const [checked, tested] = await Promise.all([checks(), vitest(process.argv.slice(2))]);
console.log(`\nChecks (${CHECKS.join(", ")}), run beside the tests:\n${checked.output}`);
if (checked.code !== 0) console.log("\nnpm test: the checks FAILED (above).");
if (tested !== 0) console.log("\nnpm test: Vitest FAILED (above).");
process.exit(checked.code !== 0 || tested !== 0 ? 1 : 0);
