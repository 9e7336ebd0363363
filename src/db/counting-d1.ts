/**
 * Counts D1 round trips for the benchmarks (bench/lib/work-cost.ts), off unless the var
 * `D1_ROUND_TRIPS=count` is set (the bench's `wrangler dev` sets it). A round trip is one call that
 * leaves the isolate for D1: `batch()` (however many statements), `exec()`, `dump()`, and a prepared
 * statement's `run()`, `all()`, `first()` or `raw()`, which is every call drizzle's D1 driver makes.
 *
 * The counters are module state, so they are per isolate. That is what the bench needs because a
 * local `wrangler dev` runs this Worker in one isolate: fetch, queue consumers, scheduled, email,
 * the automation Workflow, the Durable Objects and the WebhookSender entrypoint all share it. The counts are kept per entry point
 * so the bench can check that this still holds (a queue consumer whose counts never show up in what
 * fetch reads would run elsewhere).
 */

import { type D1Copy, simulatedDelay, simulatingRtt } from "./simulated-rtt";

/** Where the counted work came in. */
export type D1Entry =
  | "fetch"
  | "queue"
  | "scheduled"
  | "email"
  | "workflow"
  | "durable_object"
  | "webhook_sender";

const ENTRIES: readonly D1Entry[] = [
  "fetch",
  "queue",
  "scheduled",
  "email",
  "workflow",
  "durable_object",
  "webhook_sender",
];

export type { D1Copy };

const zeros = () => Object.fromEntries(ENTRIES.map((entry) => [entry, 0])) as Record<D1Entry, number>;
const roundTrips: Record<D1Copy, Record<D1Entry, number>> = { primary: zeros(), replica: zeros() };
/**
 * Statements run, per entry point: a batch of twelve is one round trip but twelve statements, and
 * locally each statement's answer (its rows and a `meta` of about 250 bytes) is turned into objects
 * on its own, so what a path costs follows its statements as much as its round trips. `exec()`
 * counts as one.
 */
const statements: Record<D1Entry, number> = zeros();

/**
 * A request carrying this header (any value) is not counted: the bench's own polling (is the queue
 * empty yet?) is not the work it measures.
 */
export const UNCOUNTED_HEADER = "X-D1-Round-Trips-Uncounted";

export function d1CountingEnabled(env: object): boolean {
  return (env as { D1_ROUND_TRIPS?: unknown }).D1_ROUND_TRIPS === "count";
}

/** The counts so far, per entry point and in all, and per entry point on each copy. */
export function d1RoundTrips(): {
  total: number;
  by_entry: Record<D1Entry, number>;
  by_copy: Record<D1Copy, Record<D1Entry, number>>;
  statements: { total: number; by_entry: Record<D1Entry, number> };
} {
  const byEntry = zeros();
  for (const entry of ENTRIES) byEntry[entry] = roundTrips.primary[entry] + roundTrips.replica[entry];
  const sum = (counts: Record<D1Entry, number>) => ENTRIES.reduce((total, entry) => total + counts[entry], 0);
  return {
    total: sum(byEntry),
    by_entry: byEntry,
    by_copy: { primary: { ...roundTrips.primary }, replica: { ...roundTrips.replica } },
    statements: { total: sum(statements), by_entry: { ...statements } },
  };
}

/**
 * Called once per round trip with the copy it reaches and the statements it carries, before it
 * leaves. A promise returned holds the round trip back until it settles: how simulated-rtt.ts adds
 * latency.
 */
export type RoundTripHook = (copy: D1Copy, statements: number) => void | Promise<void>;

/** Whether `sql` may change the database: anything but a plain read is sent to the primary. */
function isWrite(sql: string): boolean {
  if (/^\s*with\b/i.test(sql)) return /\b(insert|update|delete|replace)\b/i.test(sql);
  return !/^\s*select\b/i.test(sql);
}

/**
 * The copy a binding's or a session's round trips reach. Locally there is only the one database;
 * this is the model the counts and the simulated latency follow: a session that starts from a
 * bookmark or `first-unconstrained` reads from a replica until it first writes, and everything
 * else reaches the primary (a `first-primary` session counts as the primary throughout, though D1
 * may serve its later reads from a replica that has caught up: the figures err towards the primary).
 */
interface Route {
  copyFor(sqls: string[]): D1Copy;
}

const PRIMARY: Route = { copyFor: () => "primary" };

function sessionRoute(start: D1SessionBookmark | D1SessionConstraint | undefined): Route {
  // withSession() with no argument is first-unconstrained, as D1 reads it.
  let onReplica = start !== "first-primary";
  return {
    copyFor(sqls) {
      if (onReplica && sqls.some(isWrite)) onReplica = false;
      return onReplica ? "replica" : "primary";
    },
  };
}

/** Runs `call` after the hook has seen the round trip (and after its wait, if it asks for one). */
function roundTrip<T>(hook: RoundTripHook, copy: D1Copy, call: () => Promise<T>, statements = 1): Promise<T> {
  const wait = hook(copy, statements);
  return wait instanceof Promise ? wait.then(call) : call();
}

/** The real statement behind a counted one, and its SQL: D1's batch() accepts only its own statements. */
const realStatements = new WeakMap<object, { real: D1PreparedStatement; sql: string }>();

function countedStatement(real: D1PreparedStatement, sql: string, route: Route, hook: RoundTripHook) {
  const trip = <T>(call: () => Promise<T>) => roundTrip(hook, route.copyFor([sql]), call);
  const statement = {
    bind: (...values: unknown[]) => countedStatement(real.bind(...values), sql, route, hook),
    first: (column?: string) => trip(() => (column === undefined ? real.first() : real.first(column))),
    run: () => trip(() => real.run()),
    all: () => trip(() => real.all()),
    raw: (options?: { columnNames?: false }) =>
      trip(() => (options === undefined ? real.raw() : real.raw(options))),
  };
  realStatements.set(statement, { real, sql });
  return statement as unknown as D1PreparedStatement;
}

/** The batch's real statements, and the copy the batch reaches. */
function unwrapBatch(statements: D1PreparedStatement[], route: Route) {
  const found = statements.map((s) => realStatements.get(s) ?? { real: s, sql: "" });
  return { reals: found.map((f) => f.real), copy: route.copyFor(found.map((f) => f.sql)) };
}

/** `d1` with every round trip seen by `hook` (counted, and in development perhaps delayed). */
export function countingD1(d1: D1Database, hook: RoundTripHook): D1Database {
  const counted = {
    prepare: (query: string) => countedStatement(d1.prepare(query), query, PRIMARY, hook),
    batch: (statements: D1PreparedStatement[]) => {
      const { reals, copy } = unwrapBatch(statements, PRIMARY);
      return roundTrip(hook, copy, () => d1.batch(reals), reals.length);
    },
    exec: (query: string) => roundTrip(hook, "primary", () => d1.exec(query)),
    dump: () => roundTrip(hook, "primary", () => d1.dump(), 0),
    withSession: (constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint) => {
      const session = d1.withSession(constraintOrBookmark);
      const route = sessionRoute(constraintOrBookmark);
      return {
        prepare: (query: string) => countedStatement(session.prepare(query), query, route, hook),
        batch: (statements: D1PreparedStatement[]) => {
          const { reals, copy } = unwrapBatch(statements, route);
          return roundTrip(hook, copy, () => session.batch(reals), reals.length);
        },
        getBookmark: () => session.getBookmark(),
      } as unknown as D1DatabaseSession;
    },
  };
  return counted as unknown as D1Database;
}

/** What `make` gives for `key` and `entry`, made on the first call and kept as long as `key` lives. */
function once<K extends object, V>(
  kept: WeakMap<K, Map<D1Entry, V>>,
  key: K,
  entry: D1Entry,
  make: () => V,
): V {
  let byEntry = kept.get(key);
  if (!byEntry) {
    byEntry = new Map();
    kept.set(key, byEntry);
  }
  let value = byEntry.get(entry);
  if (value === undefined) {
    value = make();
    byEntry.set(entry, value);
  }
  return value;
}

/**
 * One counting wrapper per binding and entry point, made once: createDb caches drizzle per binding
 * object, and a new wrapper per request would rebuild it every time.
 */
const wrappers = new WeakMap<D1Database, Map<D1Entry, D1Database>>();

const wrapperOf = (d1: D1Database, entry: D1Entry): D1Database =>
  once(wrappers, d1, entry, () =>
    countingD1(d1, (copy, count) => {
      roundTrips[copy][entry]++;
      statements[entry] += count;
      return simulatedDelay(copy);
    }),
  );

/**
 * The counted copy of each env, per entry point, made once: workerd hands every request of an
 * isolate the same env, and copying its ~40 bindings on every request was 3% of the isolate's time
 * under the api-baseline load (`npm run profile -- GET /v1/accounts`).
 */
const countedEnvs = new WeakMap<object, Map<D1Entry, object>>();

/**
 * `env` itself, or when counting is enabled (or a round-trip time simulated, simulated-rtt.ts) a
 * copy whose DB, DIRECTORY and every other workspace shard (`SHARDS`) count their round trips
 * under `entry`.
 */
export function countingEnv<E extends { DB: D1Database; DIRECTORY?: D1Database; SHARDS?: string }>(
  env: E,
  entry: D1Entry,
): E {
  if (!d1CountingEnabled(env) && !simulatingRtt(env)) return env;
  return once(countedEnvs, env, entry, () => {
    const bindings = env as unknown as Record<string, D1Database | undefined>;
    const names = ["DB", "DIRECTORY", ...(env.SHARDS ?? "").split(/[\s,]+/).filter(Boolean)];
    const counted: Record<string, D1Database> = {};
    for (const name of new Set(names)) {
      const binding = bindings[name];
      if (binding) counted[name] = wrapperOf(binding, entry);
    }
    return { ...env, ...counted };
  }) as E;
}

/** countingEnv for a request, unless it asks not to be counted (UNCOUNTED_HEADER). */
export function countingEnvFor<E extends { DB: D1Database; DIRECTORY?: D1Database; SHARDS?: string }>(
  request: Request,
  env: E,
): E {
  return request.headers.has(UNCOUNTED_HEADER) ? env : countingEnv(env, "fetch");
}
