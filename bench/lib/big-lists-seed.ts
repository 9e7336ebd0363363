/**
 * Workspaces holding `count` rows of each big list of tranche 2 (contact-group members, a
 * campaign's recipients, request logs, events), written straight into the local D1 with one
 * INSERT ... SELECT per list (over a recursive sequence, or over the seeded members), as
 * `tickets-seed.ts` writes tickets.
 */

import { executeSql } from "../../scripts/lib/sql";
import { createWorkspace } from "../../scripts/lib/workspace";
import { sqlText } from "../../scripts/lib/wrangler";
import { newId } from "../../src/lib/ids";
import { countLogs, logAccount, logKey, numberAccountSql, removeLogs } from "./logs-seed";
import { deleteSeededRows } from "./tickets-seed";

/** The key id every fourth seeded log carries (no real key has it), so its filter's total is known. */
export const SEEDED_KEY = "key_bench";
export const SEEDED_EVENTS = ["ticket.created", "ticket.updated", "message.created"] as const;

export interface BigListWorkspace {
  accountId: string;
  token: string;
  groupId: string;
  /** A sent campaign whose recipients are the group's members. */
  campaignId: string;
  /** The inbox every other seeded event names. */
  inboxId: string;
  rows: number;
  seedSeconds: number;
}

// Row n of each list: a log is made with the seeded key when n % 4 = 0 and answered 404 when
// n % 5 = 0; an event is of inbox `inboxId` when n is odd, its name SEEDED_EVENTS[n % 3].
export const seededLogKey = (n: number) => (n % 4 === 0 ? SEEDED_KEY : null);
export const seededLogStatus = (n: number) => (n % 5 === 0 ? 404 : 200);
export const seededEventOfInbox = (n: number) => n % 2 === 1;
export const seededEventName = (n: number) => SEEDED_EVENTS[n % 3];
// Member n's recipient row is `sent` when n % 3 = 0, `failed` when 1, `skipped` when 2.
export const SEEDED_RECIPIENT_STATES = ["sent", "failed", "skipped"] as const;
export const seededRecipientState = (n: number) => SEEDED_RECIPIENT_STATES[n % 3];

interface SeedIds {
  account: string;
  group: string;
  campaign: string;
  inbox: string;
}

function seedStatements(ids: SeedIds, count: number, now: number) {
  const seq = `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})`;
  // Rows spread over the last hour: well inside any retention, newest last.
  const at = `${now - 3_600_000} + (n * 3600000) / ${count}`;
  const account = sqlText(ids.account);
  return [
    `INSERT INTO contact_groups (id, account_id, name, name_key, created_at, updated_at) VALUES (${sqlText(ids.group)}, ${account}, 'Bench', 'bench', ${now}, ${now});`,
    `${seq} INSERT INTO customers (id, account_id, email, created_at, updated_at)
     SELECT 'cus_' || upper(hex(randomblob(13))), ${account}, 'member' || n || '@bench.test', ${at}, ${at} FROM seq;`,
    `INSERT INTO contact_group_members (group_id, customer_id, account_id, created_at)
     SELECT ${sqlText(ids.group)}, id, account_id, created_at FROM customers WHERE account_id = ${account};`,
    `INSERT INTO campaigns (id, account_id, name, "from", subject, contact_group_ids, status, started_at, sent_at, recipients_count, created_at, updated_at)
     VALUES (${sqlText(ids.campaign)}, ${account}, 'Bench', 'Bench <news@bench.test>', 'Bench', '["${ids.group}"]', 'sent', ${now}, ${now}, ${count}, ${now}, ${now});`,
    // Each member's n is read back from its address, member<n>@bench.test.
    `INSERT INTO campaign_recipients (campaign_id, customer_id, account_id, email, state, created_at, updated_at)
     SELECT ${sqlText(ids.campaign)}, id, account_id, email,
       CASE CAST(substr(email, 7, instr(email, '@') - 7) AS INTEGER) % 3
         ${SEEDED_RECIPIENT_STATES.map((state, i) => `WHEN ${i} THEN '${state}'`).join(" ")} END, ${now}, ${now}
     FROM customers WHERE account_id = ${account};`,
    `${seq} INSERT INTO events (id, account_id, inbox_id, event, data, created_at, dispatched_at)
     SELECT 'evt_' || upper(hex(randomblob(13))), ${account},
       CASE WHEN n % 2 = 1 THEN ${sqlText(ids.inbox)} ELSE 'inb_elsewhere' END,
       CASE n % 3 ${SEEDED_EVENTS.map((name, i) => `WHEN ${i} THEN '${name}'`).join(" ")} END, '{}', ${at}, ${at} FROM seq;`,
    `SELECT (SELECT member_count FROM contact_groups WHERE id = ${sqlText(ids.group)}) AS members,
       (SELECT count(*) FROM campaign_recipients WHERE campaign_id = ${sqlText(ids.campaign)}) AS recipients,
       (SELECT count(*) FROM events WHERE account_id = ${account}) AS events;`,
  ];
}

/** The workspace's request logs, in LOGS: a quarter by SEEDED_KEY, a fifth 404s. */
function logStatements(accountId: string, count: number, now: number) {
  return [
    ...numberAccountSql(accountId, [{ id: SEEDED_KEY, prefix: null }]),
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})
     INSERT INTO request_logs (account, key, request_id, method, path, status, duration_ms, created_at)
     SELECT ${logAccount(accountId)}, CASE WHEN n % 4 = 0 THEN ${logKey(SEEDED_KEY)} ELSE 0 END, randomblob(16),
       'GET', '/v1/bench', CASE WHEN n % 5 = 0 THEN 404 ELSE 200 END, 1,
       ${now - 3_600_000} + (n * 3600000) / ${count} FROM seq;`,
  ];
}

/** An enterprise workspace without a practical rate limit, `count` rows in each list, checked. */
export async function seedBigListWorkspace(name: string, count: number): Promise<BigListWorkspace> {
  const workspace = await createWorkspace(
    // In `DB`, where this seed's SQL goes: left to placement, it lands in the emptier shard.
    { name, plan: "enterprise", overrides: { requests_per_minute: 100_000_000 }, shard: "DB" },
    "local",
  );
  const ids = {
    account: workspace.account_id,
    group: newId("grp"),
    campaign: newId("cmp"),
    inbox: newId("inb"),
  };
  const started = performance.now();
  const now = Date.now();
  const results = await executeSql(seedStatements(ids, count, now).join("\n"), "local");
  await executeSql(logStatements(ids.account, count, now).join("\n"), "local", "LOGS");
  const seedSeconds = (performance.now() - started) / 1000;
  const stored: Record<string, unknown> = {
    ...results.at(-1)?.results[0],
    logs: await countLogs(ids.account),
  };
  for (const list of ["members", "recipients", "logs", "events"]) {
    if (Number(stored[list]) !== count) {
      throw new Error(`seeding ${name}: expected ${count} ${list}, the database holds ${stored[list]}`);
    }
  }
  return {
    accountId: ids.account,
    token: workspace.token,
    groupId: ids.group,
    campaignId: ids.campaign,
    inboxId: ids.inbox,
    rows: count,
    seedSeconds,
  };
}

/**
 * Deletes what `seedBigListWorkspace` wrote (and the logs the bench's own requests left), so the
 * local database does not grow by the seed on every run.
 */
export async function removeSeededBigLists(accountIds: string[]): Promise<number> {
  const started = performance.now();
  await removeLogs(accountIds);
  const seconds = (performance.now() - started) / 1000;
  return (
    seconds + (await deleteSeededRows(["campaigns", "contact_groups", "customers", "events"], accountIds))
  );
}
