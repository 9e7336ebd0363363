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

const roundTrips: Record<D1Entry, number> = {
  fetch: 0,
  queue: 0,
  scheduled: 0,
  email: 0,
  workflow: 0,
  durable_object: 0,
  webhook_sender: 0,
};

/**
 * A request carrying this header (any value) is not counted: the bench's own polling (is the queue
 * empty yet?) is not the work it measures.
 */
export const UNCOUNTED_HEADER = "X-D1-Round-Trips-Uncounted";

export function d1CountingEnabled(env: object): boolean {
  return (env as { D1_ROUND_TRIPS?: unknown }).D1_ROUND_TRIPS === "count";
}

/** The counts so far, per entry point and in all. */
export function d1RoundTrips(): { total: number; by_entry: Record<D1Entry, number> } {
  const byEntry = { ...roundTrips };
  return { total: ENTRIES.reduce((sum, entry) => sum + byEntry[entry], 0), by_entry: byEntry };
}

/** The real statement behind a counted one: D1's batch() accepts only its own statements. */
const realStatements = new WeakMap<object, D1PreparedStatement>();

function countedStatement(real: D1PreparedStatement, count: () => void): D1PreparedStatement {
  const statement = {
    bind: (...values: unknown[]) => countedStatement(real.bind(...values), count),
    first: (column?: string) => {
      count();
      return column === undefined ? real.first() : real.first(column);
    },
    run: () => {
      count();
      return real.run();
    },
    all: () => {
      count();
      return real.all();
    },
    raw: (options?: { columnNames?: false }) => {
      count();
      return options === undefined ? real.raw() : real.raw(options);
    },
  };
  realStatements.set(statement, real);
  return statement as unknown as D1PreparedStatement;
}

const realOf = (statements: D1PreparedStatement[]) => statements.map((s) => realStatements.get(s) ?? s);

/** `d1` with every round trip counted by `count`. */
export function countingD1(d1: D1Database, count: () => void): D1Database {
  const counted = {
    prepare: (query: string) => countedStatement(d1.prepare(query), count),
    batch: (statements: D1PreparedStatement[]) => {
      count();
      return d1.batch(realOf(statements));
    },
    exec: (query: string) => {
      count();
      return d1.exec(query);
    },
    dump: () => {
      count();
      return d1.dump();
    },
    withSession: (constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint) => {
      const session = d1.withSession(constraintOrBookmark);
      return {
        prepare: (query: string) => countedStatement(session.prepare(query), count),
        batch: (statements: D1PreparedStatement[]) => {
          count();
          return session.batch(realOf(statements));
        },
        getBookmark: () => session.getBookmark(),
      } as unknown as D1DatabaseSession;
    },
  };
  return counted as unknown as D1Database;
}

/**
 * One counting wrapper per binding and entry point, made once: createDb caches drizzle per binding
 * object, and a new wrapper per request would rebuild it every time.
 */
const wrappers = new WeakMap<D1Database, Map<D1Entry, D1Database>>();

function wrapperOf(d1: D1Database, entry: D1Entry): D1Database {
  let byEntry = wrappers.get(d1);
  if (!byEntry) {
    byEntry = new Map();
    wrappers.set(d1, byEntry);
  }
  let wrapper = byEntry.get(entry);
  if (!wrapper) {
    wrapper = countingD1(d1, () => {
      roundTrips[entry]++;
    });
    byEntry.set(entry, wrapper);
  }
  return wrapper;
}

/** `env` itself, or when counting is enabled a copy whose DB counts its round trips under `entry`. */
export function countingEnv<E extends { DB: D1Database }>(env: E, entry: D1Entry): E {
  if (!d1CountingEnabled(env)) return env;
  return { ...env, DB: wrapperOf(env.DB, entry) };
}

/** countingEnv for a request, unless it asks not to be counted (UNCOUNTED_HEADER). */
export function countingEnvFor<E extends { DB: D1Database }>(request: Request, env: E): E {
  return request.headers.has(UNCOUNTED_HEADER) ? env : countingEnv(env, "fetch");
}
