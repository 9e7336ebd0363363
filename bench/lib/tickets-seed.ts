/**
 * Workspaces full of tickets, written straight into the local D1 (`executeSql`, in a local runtime of the bench process):
 * creating 100,000 tickets through the API would take longer than measuring them. Every run adds
 * its workspaces to the local database; `localD1Bytes` tells the scenario how much that costs.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { executeSql } from "../../scripts/lib/sql";
import { createWorkspace } from "../../scripts/lib/workspace";
import { ROOT, sqlText } from "../../scripts/lib/wrangler";
import { newId } from "../../src/lib/ids";

const DAY_MS = 86_400_000;
const SPREAD_MS = 30 * DAY_MS;
// One INSERT ... SELECT writes at most this many tickets; larger seeds are split into several.
const ROWS_PER_STATEMENT = 100_000;

// The seed's inboxes; each has a tag named TAG, and ticket n is in inbox n % INBOXES.
const INBOXES = 4;
export const SEEDED_TAG = "vip";

export interface TicketWorkspace {
  accountId: string;
  /** The seeded inboxes, in order: ticket n is in inboxIds[n % INBOXES]. */
  inboxIds: string[];
  token: string;
  /** The workspace's owner (a user row), for scenarios that sign in to the dashboard. */
  ownerId: string;
  tickets: number;
  /** Wall time of the local D1 batch that wrote the inbox, customer and tickets. */
  seedSeconds: number;
  /** Time D1 reports for the ticket INSERT statements alone (without wrangler's start-up). */
  insertSeconds: number;
}

/**
 * The status and priority of ticket number n, as the seed SQL writes them (open/pending/closed in
 * turn, every tenth high), so a scenario knows what a filter should count.
 */
export const seededStatus = (n: number) => (["open", "pending", "closed"] as const)[n % 3];
export const seededPriority = (n: number) => (n % 10 === 0 ? "high" : "normal");
/** Every sixth ticket is assigned to the workspace's owner, every fifth carries its inbox's tag. */
export const seededAssigned = (n: number) => n % 6 === 0;
export const seededTagged = (n: number) => n % 5 === 0;
export const seededInbox = (n: number) => n % INBOXES;

/** Tickets 1..count of the seed for which `keep` holds. */
export function countSeeded(count: number, keep: (n: number) => boolean): number {
  let matches = 0;
  for (let n = 1; n <= count; n++) if (keep(n)) matches++;
  return matches;
}

interface SeedIds {
  account: string;
  owner: string;
  inboxes: string[];
  tags: string[];
  customer: string;
}

/** SQL choosing among `values` by `column` modulo their count. */
const pick = (values: string[], column = "n") =>
  `CASE ${column} % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN ${sqlText(v)}`).join(" ")} END`;

/**
 * Tickets first..last in one statement, spread over the inboxes, one customer, created over the
 * last 30 days; then their tags. The counters of the list filters are kept by triggers as they go.
 */
function ticketInsert(ids: SeedIds, first: number, last: number, count: number, now: number) {
  const createdAt = `${now - SPREAD_MS} + (n * ${SPREAD_MS}) / ${count}`;
  return `WITH RECURSIVE seq(n) AS (SELECT ${first} UNION ALL SELECT n + 1 FROM seq WHERE n < ${last})
INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, status, priority, assignee_id, shared_uuid, metadata, message_count, created_at, updated_at)
SELECT 'tkv_' || upper(hex(randomblob(13))), ${sqlText(ids.account)}, ${pick(ids.inboxes)}, ${sqlText(ids.customer)}, n,
  'TKT-' || printf('%05d', n), 'Bench ticket ' || n,
  CASE n % 3 WHEN 0 THEN 'open' WHEN 1 THEN 'pending' ELSE 'closed' END,
  CASE WHEN n % 10 = 0 THEN 'high' ELSE 'normal' END,
  CASE WHEN n % 6 = 0 THEN ${sqlText(ids.owner)} END,
  'shr_' || upper(hex(randomblob(13))), '{}', 0, ${createdAt}, ${createdAt}
FROM seq;
INSERT INTO ticket_tags (ticket_id, tag_id, account_id, created_at)
SELECT id, ${pick(ids.tags, "number")}, account_id, created_at FROM tickets
WHERE account_id = ${sqlText(ids.account)} AND number BETWEEN ${first} AND ${last} AND number % 5 = 0;`;
}

/**
 * An enterprise workspace without a practical rate limit, holding `count` tickets, and a check that
 * they are all there. Throws, quoting wrangler, when writing fails.
 */
export async function seedTicketWorkspace(name: string, count: number): Promise<TicketWorkspace> {
  const workspace = await createWorkspace(
    // In `DB`, where this seed's SQL goes: left to placement, it lands in the emptier shard.
    { name, plan: "enterprise", overrides: { requests_per_minute: 100_000_000 }, shard: "DB" },
    "local",
  );
  const now = Date.now();
  const inboxes = Array.from({ length: INBOXES }, () => newId("inb"));
  const ids: SeedIds = {
    account: workspace.account_id,
    owner: workspace.user_id,
    inboxes,
    tags: inboxes.map(() => newId("tag")),
    customer: newId("cus"),
  };
  const inserts: string[] = [];
  for (let first = 1; first <= count; first += ROWS_PER_STATEMENT) {
    inserts.push(ticketInsert(ids, first, Math.min(count, first + ROWS_PER_STATEMENT - 1), count, now));
  }
  const statements = [
    ...inboxes.map(
      (inbox, i) =>
        `INSERT INTO inboxes (id, account_id, name, email_address, created_at, updated_at) VALUES (${sqlText(inbox)}, ${sqlText(ids.account)}, ${sqlText(`${name} ${i + 1}`)}, ${sqlText(`tickets-${i}-${ids.account.toLowerCase()}@bench.test`)}, ${now}, ${now});
INSERT INTO tags (id, account_id, inbox_id, name, name_key, created_at) VALUES (${sqlText(ids.tags[i] ?? "")}, ${sqlText(ids.account)}, ${sqlText(inbox)}, 'VIP', ${sqlText(SEEDED_TAG)}, ${now});`,
    ),
    `INSERT INTO customers (id, account_id, email, name, created_at, updated_at) VALUES (${sqlText(ids.customer)}, ${sqlText(ids.account)}, 'customer@example.com', 'Bench Customer', ${now}, ${now});`,
    ...inserts,
    `UPDATE accounts SET ticket_sequence = ${count} WHERE id = ${sqlText(ids.account)};`,
    `SELECT count(*) AS tickets FROM tickets WHERE account_id = ${sqlText(ids.account)};`,
  ];
  const started = performance.now();
  const results = await executeSql(statements.join("\n"), "local");
  const seedSeconds = (performance.now() - started) / 1000;
  const stored = Number(results.at(-1)?.results[0]?.tickets);
  if (stored !== count) {
    throw new Error(`seeding ${name}: expected ${count} tickets, the database holds ${stored}`);
  }
  // Each insert is two statements (tickets, then their tags), after two per inbox and the customer.
  const firstInsert = 2 * INBOXES + 1;
  const insertMs = results
    .slice(firstInsert, firstInsert + 2 * inserts.length)
    .reduce((sum, statement) => sum + (statement.meta?.duration ?? 0), 0);
  return {
    accountId: ids.account,
    inboxIds: inboxes,
    token: workspace.token,
    ownerId: workspace.user_id,
    tickets: count,
    seedSeconds,
    insertSeconds: insertMs / 1000,
  };
}

/**
 * Deletes the rows of `tables` that belong to the seeded accounts (the accounts and their keys
 * stay: request logs may name them), in the order given. SQLite keeps the freed pages and reuses
 * them for the next run's seed, so the local database stops growing by the size of the seed on
 * every run. Answers how long it took.
 */
export async function deleteSeededRows(tables: string[], accountIds: string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  const ids = accountIds.map(sqlText).join(", ");
  const started = performance.now();
  await executeSql(
    tables.map((table) => `DELETE FROM ${table} WHERE account_id IN (${ids});`).join("\n"),
    "local",
  );
  return (performance.now() - started) / 1000;
}

/** Deletes what `seedTicketWorkspace` wrote. */
export const removeSeededTickets = (accountIds: string[]) =>
  deleteSeededRows(["tickets", "customers", "inboxes"], accountIds);

const D1_DIR = join(ROOT, ".wrangler", "state", "v3", "d1", "miniflare-D1DatabaseObject");

/** Bytes of the local D1 files (databases and their write-ahead logs); 0 when there are none. */
export function localD1Bytes(): number {
  try {
    return readdirSync(D1_DIR).reduce((sum, file) => sum + statSync(join(D1_DIR, file)).size, 0);
  } catch {
    return 0;
  }
}
