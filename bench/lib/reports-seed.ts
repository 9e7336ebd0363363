/**
 * Workspaces for the reports benchmark, written straight into the local D1 (`executeSql`, in a local
 * runtime of the bench process) as `tickets-seed.ts` writes tickets: API emails with a tag, bounces and opens, and
 * tickets with a customer message, a reply (carried by an email of its own), resolutions, reopenings
 * and survey answers. The rollups are never written here: the support rollups move through
 * migration 0026's triggers as the rows go in (their own write path), and the email rollups are
 * rebuilt afterwards by the migrations' own backfill SQL (0025, 0028), so the reports read what the service
 * would have kept.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { executeSql } from "../../scripts/lib/sql";
import { createWorkspace } from "../../scripts/lib/workspace";
import { ROOT, sqlText } from "../../scripts/lib/wrangler";
import { newId } from "../../src/lib/ids";
import { deleteSeededRows } from "./tickets-seed";

const DAY_MS = 86_400_000;
// Emails over 31 days, so the default 30-day report has mail before its first day too, ending two
// hours ago so that their opens and clicks (at most 61 minutes later) happen before now.
const EMAIL_SPAN_MS = 31 * DAY_MS;
const EMAIL_END_MS = 2 * 3_600_000;
// Tickets from 30 days ago to a day ago: their replies (at most 4 h later) and resolutions (at
// most 21 h later) all happen before now.
const TICKET_SPAN_MS = 29 * DAY_MS;
// One INSERT ... SELECT writes at most this many rows; larger seeds are split into several.
const ROWS_PER_STATEMENT = 100_000;
const INBOXES = 4;

/** The values of the `category` tag, in turn: API email n carries CATEGORIES[n % 4]. */
const CATEGORIES = ["welcome", "receipt", "digest", "alert"] as const;
/** The tag filter the scenario measures, as `name:value`. */
export const SEEDED_TAG = `category:${CATEGORIES[0]}`;

/** The migration whose backfill builds the email rollups on the current (compact) schema. */
const EMAIL_REPORT_MIGRATIONS = ["0031_compact_emails.sql"].map((file) => join(ROOT, "migrations", file));

export interface ReportWorkspace {
  accountId: string;
  token: string;
  /** The owner, the assignee of every fifth ticket, for scenarios that sign in to the dashboard. */
  ownerId: string;
  inboxIds: string[];
  /** Emails in all: the API emails and one per ticket's reply. */
  emails: number;
  tickets: number;
  /** UTC midnight of the first day that has an email: a report from it covers every seeded fact. */
  firstDay: number;
  /** Wall time of the local D1 batch that wrote the rows (support rollups included). */
  seedSeconds: number;
  /** Time D1 reports for the statements alone (without wrangler's start-up). */
  sqlSeconds: number;
}

interface SeedIds {
  account: string;
  owner: string;
  inboxes: string[];
  customer: string;
  csat: string;
  nps: string;
}

/** SQL choosing among `values` by `column` modulo their count. */
const pick = (values: readonly string[], column: string) =>
  `CASE ${column} % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN ${sqlText(v)}`).join(" ")} END`;

/** [first, last] in pieces of at most ROWS_PER_STATEMENT. */
function chunks(count: number): Array<[number, number]> {
  const pieces: Array<[number, number]> = [];
  for (let first = 1; first <= count; first += ROWS_PER_STATEMENT)
    pieces.push([first, Math.min(count, first + ROWS_PER_STATEMENT - 1)]);
  return pieces;
}

/**
 * An id body that sorts by `time` as a ULID does (time first, then randomness), so a seed appends
 * to the primary keys as the service's own inserts do instead of writing all over them.
 */
const ulid = (time: string) => `printf('%012X', ${time}) || upper(hex(randomblob(7)))`;

const seq = (first: number, last: number) =>
  `WITH RECURSIVE seq(n) AS (SELECT ${first} UNION ALL SELECT n + 1 FROM seq WHERE n < ${last})`;

/**
 * API emails first..last of `count`, spread evenly over the last 31 days (strictly increasing
 * created_at, so a chunk is one range of emails_account_created), then their tag, their
 * attempt's event and the hard bounces. Every 50th fails, every 100th (7 past) bounces hard, the
 * rest are delivered; every third is opened an hour later, every tenth clicked.
 */
function apiEmails(ids: SeedIds, first: number, last: number, count: number, now: number) {
  const account = sqlText(ids.account);
  const start = now - EMAIL_END_MS - EMAIL_SPAN_MS;
  const at = (n: number) => start + Math.floor((n * EMAIL_SPAN_MS) / count);
  const inChunk = `account_id = ${account} AND source = 'api' AND created_at BETWEEN ${at(first)} AND ${at(last)}`;
  return [
    `${seq(first, last)}
INSERT INTO emails (id, account_id, account_seq, source, from_header, to_list, subject, status, message_id, last_event, last_event_at, attempts, handoff_attempt, sent_at, open_count, first_opened_at, last_opened_at, click_count, first_clicked_at, last_clicked_at, created_at, updated_at)
SELECT 'eml_' || ${ulid("at")}, ${account}, (SELECT seq FROM accounts WHERE id = ${account}), 'api', 'Bench <news@bench.test>',
  '["customer@example.com"]', 'Bench email ' || n,
  s.status, '<' || printf('%08d', n) || '.' || ${account} || '@bench.test>', s.status, at + 2000, 1, 1,
  CASE s.status WHEN 'delivered' THEN at + 2000 END,
  n % 3 = 0, CASE WHEN n % 3 = 0 THEN at + 3600000 END, CASE WHEN n % 3 = 0 THEN at + 3600000 END,
  n % 10 = 0, CASE WHEN n % 10 = 0 THEN at + 3660000 END, CASE WHEN n % 10 = 0 THEN at + 3660000 END,
  at, at + 2000
FROM (SELECT n, ${start} + (n * ${EMAIL_SPAN_MS}) / ${count} AS at,
  CASE WHEN n % 50 = 0 THEN 'failed' WHEN n % 100 = 7 THEN 'bounced' ELSE 'delivered' END AS status FROM seq) s;`,
    `INSERT INTO email_tags (email_seq, account_seq, name, value, created_at)
SELECT seq, account_seq, 'category', ${pick(CATEGORIES, "CAST(substr(subject, 13) AS INTEGER)")}, created_at
FROM emails WHERE ${inChunk};`,
    `INSERT INTO email_events (email_seq, type, created_at)
SELECT seq, CASE status WHEN 'delivered' THEN 'sent' ELSE status END, created_at + 1000 FROM emails WHERE ${inChunk};`,
    `INSERT INTO bounces (account_id, email, kind, email_id, detail, created_at)
SELECT account_id, 'customer@example.com', 'hard', id, '550 5.1.1 user unknown', created_at + 1000
FROM emails WHERE ${inChunk} AND status = 'bounced';`,
  ];
}

/**
 * Tickets first..last of `count` over 29 days, each opened by a customer message and answered by
 * a reply 5 minutes to 4 hours later, carried by an email (id `eml_` + the ticket id's hex) that
 * the inbox filter of the email report counts. Two in three are resolved 30 minutes to 21 hours
 * after creation, one in thirty reopened an hour after; half the resolved get a CSAT or NPS answer.
 * Every statement fires the support rollups' triggers as the service's own writes do.
 */
function tickets(ids: SeedIds, first: number, last: number, count: number, now: number) {
  const account = sqlText(ids.account);
  const start = now - 30 * DAY_MS;
  const chunk = `account_id = ${account} AND number BETWEEN ${first} AND ${last}`;
  const replyAt = "t.created_at + ((t.number * 7919) % 236 + 5) * 60000";
  const resolvedAt = "created_at + ((number * 104729) % 1230 + 30) * 60000";
  return [
    `${seq(first, last)}
INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, status, priority, assignee_id, shared_uuid, metadata, message_count, created_at, updated_at)
SELECT 'tkv_' || ${ulid("at")}, ${account}, ${pick(ids.inboxes, "n")}, ${sqlText(ids.customer)}, n,
  'TKT-' || printf('%06d', n), 'Bench ticket ' || n, 'open', 'normal',
  CASE WHEN n % 5 = 0 THEN ${sqlText(ids.owner)} END, 'shr_' || upper(hex(randomblob(13))), '{}', 2, at, at
FROM (SELECT n, ${start} + (n * ${TICKET_SPAN_MS}) / ${count} AS at FROM seq);`,
    `INSERT INTO messages (id, account_id, ticket_id, type, direction, author_type, from_address, to_list, subject, body_text, is_draft, status, created_at, updated_at)
SELECT 'msg_' || ${ulid("created_at")}, account_id, id, 'customer', 'inbound', 'customer', 'customer@example.com',
  '[]', subject, 'Help, please.', 0, 'received', created_at, created_at FROM tickets WHERE ${chunk};`,
    `INSERT INTO emails (id, account_id, account_seq, source, from_header, to_list, subject, status, message_id, last_event, last_event_at, attempts, handoff_attempt, sent_at, created_at, updated_at)
SELECT 'eml_' || substr(t.id, 5), t.account_id, (SELECT seq FROM accounts WHERE id = t.account_id), 'ticket', 'Support <support@bench.test>',
  '["customer@example.com"]', 'Re: ' || t.subject, 'delivered', '<' || t.id || '@bench.test>', 'delivered',
  ${replyAt} + 2000, 1, 1, ${replyAt} + 2000, ${replyAt}, ${replyAt} + 2000
FROM tickets t WHERE t.${chunk};`,
    `INSERT INTO email_events (email_seq, type, created_at)
SELECT (SELECT seq FROM emails WHERE id = 'eml_' || substr(t.id, 5)), 'sent', ${replyAt} + 1000 FROM tickets t WHERE t.${chunk};`,
    `INSERT INTO messages (id, account_id, ticket_id, type, direction, author_type, author_id, from_address, to_list, subject, body_text, is_draft, status, email_id, email_message_id, sent_at, created_at, updated_at)
SELECT 'msg_' || ${ulid(replyAt)}, t.account_id, t.id, 'reply', 'outbound', 'user', ${sqlText(ids.owner)},
  'support@bench.test', '["customer@example.com"]', 'Re: ' || t.subject, 'On it.', 0, 'sent',
  'eml_' || substr(t.id, 5), '<' || t.id || '@bench.test>', ${replyAt} + 2000, ${replyAt}, ${replyAt}
FROM tickets t WHERE t.${chunk};`,
    `UPDATE tickets SET status = 'resolved', closed_at = ${resolvedAt}, updated_at = ${resolvedAt}
WHERE ${chunk} AND number % 3 <> 0;`,
    `UPDATE tickets SET status = 'open', closed_at = NULL, updated_at = updated_at + 3600000
WHERE ${chunk} AND number % 30 = 1;`,
    `INSERT INTO survey_responses (id, account_id, survey_id, ticket_id, inbox_id, customer_id, assignee_id, rating, created_at, updated_at)
SELECT 'rsp_' || ${ulid("closed_at")}, account_id,
  CASE number % 4 WHEN 1 THEN ${sqlText(ids.csat)} ELSE ${sqlText(ids.nps)} END, id, inbox_id, customer_id, assignee_id,
  CASE number % 4 WHEN 1 THEN number % 5 + 1 ELSE number % 11 END, closed_at + 600000, closed_at + 600000
FROM tickets WHERE ${chunk} AND status = 'resolved' AND number % 2 = 1;`,
  ];
}

function setupStatements(ids: SeedIds, name: string, now: number) {
  const account = sqlText(ids.account);
  return [
    ...ids.inboxes.map(
      (inbox, i) =>
        `INSERT INTO inboxes (id, account_id, name, email_address, created_at, updated_at) VALUES (${sqlText(inbox)}, ${account}, ${sqlText(`${name} ${i + 1}`)}, ${sqlText(`reports-${i}-${ids.account.toLowerCase()}@bench.test`)}, ${now}, ${now});`,
    ),
    `INSERT INTO customers (id, account_id, email, name, created_at, updated_at) VALUES (${sqlText(ids.customer)}, ${account}, 'customer@example.com', 'Bench Customer', ${now}, ${now});`,
    ...[
      [ids.csat, "csat", "How did we do?"],
      [ids.nps, "nps", "Would you recommend us?"],
    ].map(
      ([id, kind, question]) =>
        `INSERT INTO surveys (id, account_id, name, kind, question, created_at, updated_at) VALUES (${sqlText(id ?? "")}, ${account}, ${sqlText(`Bench ${kind}`)}, ${sqlText(kind ?? "")}, ${sqlText(question ?? "")}, ${now}, ${now});`,
    ),
  ];
}

/** One row of what the seed wrote, to check it against what was asked. */
const tally = (account: string) =>
  `SELECT (SELECT count(*) FROM emails WHERE account_id = ${account}) AS emails,
  (SELECT count(*) FROM tickets WHERE account_id = ${account}) AS tickets,
  (SELECT sum(created) FROM support_daily WHERE account_id = ${account} AND dimension = 'all') AS rolled_up;`;

/**
 * An enterprise workspace without a practical rate limit holding `emails` emails, `tickets` of
 * them ticket replies, and the tickets, checked. Throws, quoting wrangler, when writing fails.
 * The email rollups are not built here: `rebuildEmailRollups` does it once for every workspace.
 */
export async function seedReportWorkspace(
  name: string,
  size: { emails: number; tickets: number },
): Promise<ReportWorkspace> {
  if (size.tickets > size.emails) throw new Error("every ticket's reply is one of the emails");
  const workspace = await createWorkspace(
    // In `DB`, where this seed's SQL goes: left to placement, it lands in the emptier shard.
    { name, plan: "enterprise", overrides: { requests_per_minute: 100_000_000 }, shard: "DB" },
    "local",
  );
  const now = Date.now();
  const ids: SeedIds = {
    account: workspace.account_id,
    owner: workspace.user_id,
    inboxes: Array.from({ length: INBOXES }, () => newId("inb")),
    customer: newId("cus"),
    csat: newId("srv"),
    nps: newId("srv"),
  };
  const api = size.emails - size.tickets;
  const statements = [
    ...setupStatements(ids, name, now),
    ...chunks(api).flatMap(([first, last]) => apiEmails(ids, first, last, api, now)),
    ...chunks(size.tickets).flatMap(([first, last]) => tickets(ids, first, last, size.tickets, now)),
    tally(sqlText(ids.account)),
  ];
  const started = performance.now();
  const results = await executeSql(statements.join("\n"), "local");
  const seedSeconds = (performance.now() - started) / 1000;
  const stored = results.at(-1)?.results[0] ?? {};
  const expected = { emails: size.emails, tickets: size.tickets, rolled_up: size.tickets };
  for (const [what, count] of Object.entries(expected)) {
    if (Number(stored[what]) !== count)
      throw new Error(`seeding ${name}: expected ${count} ${what}, the database holds ${stored[what]}`);
  }
  return {
    accountId: ids.account,
    token: workspace.token,
    ownerId: ids.owner,
    inboxIds: ids.inboxes,
    emails: size.emails,
    tickets: size.tickets,
    firstDay: Math.floor((now - EMAIL_END_MS - EMAIL_SPAN_MS) / DAY_MS) * DAY_MS,
    seedSeconds,
    sqlSeconds: results.reduce((sum, statement) => sum + (statement.meta?.duration ?? 0), 0) / 1000,
  };
}

/**
 * Runs the `-- Backfill` sections of the email report's migrations as they stand, which rebuild
 * `email_daily` from the rows of every workspace of the local database (as deploying the
 * migrations does), and answers how long it took.
 */
export async function rebuildEmailRollups(): Promise<number> {
  const statements = EMAIL_REPORT_MIGRATIONS.flatMap((file) => {
    const migration = readFileSync(file, "utf8");
    const at = migration.search(/^-- Backfill/m);
    if (at < 0) throw new Error(`${file} has no "-- Backfill" section`);
    return migration
      .slice(at)
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter((s) => s.replace(/^--.*$/gm, "").trim() !== "");
  });
  const started = performance.now();
  await executeSql(statements.map((s) => (s.endsWith(";") ? s : `${s};`)).join("\n"), "local");
  return (performance.now() - started) / 1000;
}

/**
 * Deletes what `seedReportWorkspace` wrote and the rollups made of it (the accounts, their keys and
 * owners stay), so the local database does not grow by the seed on every run. Answers how long it took.
 */
export async function removeSeededReports(accountIds: string[]): Promise<number> {
  if (accountIds.length === 0) return 0;
  const ids = accountIds.map(sqlText).join(", ");
  const started = performance.now();
  await executeSql(
    `DELETE FROM email_events WHERE email_seq IN (SELECT seq FROM emails WHERE account_id IN (${ids}));
DELETE FROM email_tags WHERE email_seq IN (SELECT seq FROM emails WHERE account_id IN (${ids}));`,
    "local",
  );
  const seconds = (performance.now() - started) / 1000;
  return (
    seconds +
    (await deleteSeededRows(
      [
        "survey_responses",
        "messages",
        "bounces",
        "emails",
        "tickets",
        "surveys",
        "customers",
        "inboxes",
        "support_durations",
        "support_daily",
        "email_daily",
      ],
      accountIds,
    ))
  );
}
