/**
 * npm run pair -- <checkout A> <checkout B> [path]: the bench's own server of each checkout (its
 * code, its fresh local state), both under the same load at once in alternating 2-second slices,
 * ten each, so that whatever else the machine does falls on both. Runs one after another on a
 * small machine swing by 10 to 20%, as much as a change worth measuring; a pair compares like with
 * like. `path` is `/v1/accounts` unless given; BENCH_SECONDS (default 40) is each side's total.
 * Run it twice, A and B swapped the second time: the later slice of each round gains a little.
 *
 *   git worktree add ../before <commit> && npm run pair -- ../before .
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { interleaved, warmUp } from "./lib/measure";
import type { Server } from "./lib/server";

const SECONDS = Number(process.env.BENCH_SECONDS ?? "40");

/** The checkout's own bench server (bench/lib/server.ts there), which serves the checkout's code. */
async function serverOf(checkout: string): Promise<Server> {
  const url = pathToFileURL(resolve(checkout, "bench/lib/server.ts")).href;
  const { startServer } = (await import(url)) as { startServer: () => Promise<Server> };
  return startServer();
}

async function main() {
  const [dirA, dirB, path = "/v1/accounts"] = process.argv.slice(2);
  if (!dirA || !dirB) throw new Error("usage: npm run pair -- CHECKOUT_A CHECKOUT_B [path]");
  const servers = [await serverOf(dirA), await serverOf(dirB)] as const;
  try {
    const [a, b] = servers.map((server, i) => ({
      label: i === 0 ? "A" : "B",
      url: `${server.baseUrl}${path}`,
      headers: { Authorization: `Bearer ${server.token}` },
      seconds: SECONDS,
    }));
    if (!a || !b) throw new Error("two servers expected");
    await warmUp(a);
    await warmUp(b);
    const [figuresA, figuresB] = await interleaved([a, b], 10);
    if (!figuresA || !figuresB) throw new Error("no figures");
    for (const [f, dir] of [
      [figuresA, dirA],
      [figuresB, dirB],
    ] as const)
      console.log(
        `${f.label} (${dir}) ${path}: ${f.rps.toFixed(0)} req/s, p50 ${f.p50} ms, non-2xx ${f.non2xx}`,
      );
    console.log(`B/A ${(figuresB.rps / figuresA.rps).toFixed(3)}`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

await main();
