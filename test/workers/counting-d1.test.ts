import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb, runBatch } from "../../src/db/client";
import { countingD1, countingEnv, d1RoundTrips, UNCOUNTED_HEADER } from "../../src/db/counting-d1";
import { accounts } from "../../src/db/schema";
import worker from "../../src/index";
import { seedWorkspace } from "./helpers";

/** One request through the Worker's own fetch entry point, with `vars` over the test bindings. */
async function fetchWith(vars: Record<string, string>, path: string, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request(`http://127.0.0.1:8787${path}`, { headers });
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const COUNTING = { ENVIRONMENT: "development", D1_ROUND_TRIPS: "count" };

describe("D1 round-trip counting", () => {
  it("counts each call that reaches D1 once: a batch of several statements is one, a prepared .all() one", async () => {
    let count = 0;
    let statements = 0;
    const d1 = countingD1(env.DB_2, (_copy, carried) => {
      count++;
      statements += carried;
    });
    const db = createDb(d1);

    const results = await runBatch(db, [sql`SELECT 1 AS one`, sql`SELECT 2 AS two`, sql`SELECT 3 AS three`]);
    expect(results.map((r) => r.results)).toEqual([[{ one: 1 }], [{ two: 2 }], [{ three: 3 }]]);
    expect(count).toBe(1);
    expect(statements).toBe(3);

    await db.select({ id: accounts.id }).from(accounts).limit(1).all();
    expect(count).toBe(2);

    await db.batch([db.select().from(accounts).limit(1), db.select().from(accounts).limit(2)]);
    expect(count).toBe(3);

    const statement = d1.prepare("SELECT ?1 AS n");
    expect(count).toBe(3); // preparing and binding stay in the isolate
    expect(await statement.bind(7).first("n")).toBe(7);
    expect(await statement.bind(8).raw()).toEqual([[8]]);
    expect((await statement.bind(9).all()).results).toEqual([{ n: 9 }]);
    await statement.bind(10).run();
    await d1.exec("SELECT 1");
    expect(count).toBe(8);
    expect(statements).toBe(3 + 1 + 2 + 5);
  });

  it("is off unless D1_ROUND_TRIPS=count, and then wraps each binding once per entry point", () => {
    expect(countingEnv(env, "queue")).toBe(env);
    const counted = { ...env, D1_ROUND_TRIPS: "count" };
    const first = countingEnv(counted, "queue");
    expect(first.DB).not.toBe(env.DB_2);
    expect(countingEnv(counted, "queue").DB).toBe(first.DB);
    expect(countingEnv(counted, "fetch").DB).not.toBe(first.DB);
    // The copy of env itself is made once too: every request of an isolate gets the same env.
    expect(countingEnv(counted, "queue")).toBe(first);
    expect(countingEnv(counted, "fetch")).not.toBe(first);
  });

  it("counts a request's round trips under fetch, except the bench's uncounted ones, and shows them in development", async () => {
    const ws = await seedWorkspace();
    const auth = { Authorization: `Bearer ${ws.token}` };

    const before = d1RoundTrips();
    expect((await fetchWith(COUNTING, "/v1/emails", auth)).status).toBe(200);
    const after = d1RoundTrips();
    expect(after.by_entry.fetch).toBeGreaterThan(before.by_entry.fetch);
    expect(after.total - before.total).toBe(after.by_entry.fetch - before.by_entry.fetch);
    // Each round trip carries one statement or more, all counted under the same entry point.
    const carried = after.statements.by_entry.fetch - before.statements.by_entry.fetch;
    expect(carried).toBeGreaterThanOrEqual(after.by_entry.fetch - before.by_entry.fetch);
    expect(after.statements.total - before.statements.total).toBe(carried);

    expect((await fetchWith(COUNTING, "/v1/emails", { ...auth, [UNCOUNTED_HEADER]: "1" })).status).toBe(200);
    expect(d1RoundTrips()).toEqual(after);

    const shown = await fetchWith(COUNTING, "/_dev/d1-round-trips");
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual(after);
  });

  it("has no counter route outside development or when counting is off", async () => {
    expect((await fetchWith({ ENVIRONMENT: "development" }, "/_dev/d1-round-trips")).status).toBe(404);
    expect((await fetchWith({ ...COUNTING, ENVIRONMENT: "production" }, "/_dev/d1-round-trips")).status).toBe(
      404,
    );
  });
});
