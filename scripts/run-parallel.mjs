/**
 * Runs npm scripts at the same time and fails if any of them failed. `tsc`, `biome` and
 * `wrangler types --check` are each single-threaded, so one after another they leave every core but
 * one idle. Each script's output is held back and printed whole when it ends, so that two of them
 * never interleave their lines. Plain JavaScript: it starts in a few milliseconds, with no loader.
 *
 *   node scripts/run-parallel.mjs typecheck:worker typecheck:node lint
 */
import { spawn } from "node:child_process";

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs <npm script>...");
  process.exit(2);
}

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", name], {
      stdio: ["ignore", "pipe", "pipe"],
      shell: process.platform === "win32",
    });
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    let finished = false;
    const finish = (code) => {
      if (finished) return;
      finished = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const output = Buffer.concat(chunks).toString().trimEnd();
      const verdict = code === 0 ? "ok" : `FAILED (exit ${code})`;
      console.log(`> ${name}: ${verdict} in ${seconds} s${output ? `\n${output}` : ""}`);
      resolve(code);
    };
    child.on("error", (error) => {
      chunks.push(Buffer.from(String(error)));
      finish(1);
    });
    child.on("close", (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(names.map(run));
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
