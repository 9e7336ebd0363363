/**
 * A free workspace (30 days of email history) holding emails 31 to 35 days old, all due for the
 * retention job, written straight into the local D1 (`executeSql`, in a local runtime of the bench process) of the shard
 * the workspace was placed in. Each is shaped like sent mail as the send path leaves it: delivered,
 * one accepted recipient, two tags, a `sent` and a `delivered` event, an HTML body of `htmlBytes`
 * and a text body half as long in the row, and ~2 KB of built message counted in storage. Every
 * OBJECT_EVERY-th email also gets its built message in the local R2 (`wrangler r2 bulk put
 * --local`, 4 to 13 ms an object on this machine, so not all of them); the others' deletes hit
 * absent keys, as R2 allows.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executeSql } from "../../scripts/lib/sql";
import { createWorkspace } from "../../scripts/lib/workspace";
import { ROOT, sqlText, WRANGLER } from "../../scripts/lib/wrangler";
import { messageKey } from "../../src/features/emails/message-key";
import { DAY_MS } from "../../src/lib/email-retention";

/** The emails span [now - 35 days, now - 31 days]: every one past the free plan's 30 days. */
const OLDEST_MS = 35 * DAY_MS;
const SPAN_MS = 4 * DAY_MS;
/** One email in this many gets its built message in R2. */
export const OBJECT_EVERY = 10;
const BUCKET = "support-mail-files";
const MESSAGE_BYTES = 2_000;

export interface RetentionWorkspace {
  accountId: string;
  token: string;
  /** The D1 binding of the shard it lives in (scripts/lib/placement.ts chose it). */
  shard: string;
  emails: number;
  /** Emails per UTC day (days since the epoch), as the archive should count them. */
  perDay: Map<number, number>;
  /** Emails whose built message is in R2. */
  withObject: string[];
  /** Bytes the seeded emails count in storage (account_usage.storage_bytes at the start). */
  storedBytes: number;
  seedSeconds: number;
  objectSeconds: number;
}

/** An HTML body of `bytes` (and a text body half as long): kept in the row, left out of the archive. */
const body = (bytes: number) => "Thank you for your order. ".repeat(Math.ceil(bytes / 26)).slice(0, bytes);
const DOMAINS = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "example.com"];
const SUBJECTS = ["Your receipt", "Your order has shipped", "Reset your password", "Welcome aboard"];
const CATEGORIES = ["receipt", "shipping", "password", "welcome"];
/** A relay's answer as it varies per message: a queue id of its own. */
const QUEUED = "'250 2.0.0 Ok: queued as ' || upper(hex(randomblob(5)))";

/** SQL choosing among `values` by `column` modulo their count. */
const pick = (values: readonly string[], column: string) =>
  `CASE ${column} % ${values.length} ${values.map((v, i) => `WHEN ${i} THEN ${sqlText(v)}`).join(" ")} END`;

function emailStatements(account: string, count: number, htmlBytes: number, now: number): string[] {
  const html = sqlText(body(htmlBytes));
  const text = sqlText(body(htmlBytes / 2));
  const start = now - OLDEST_MS;
  const inWorkspace = `FROM emails WHERE account_id = ${account}`;
  return [
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${count})
INSERT INTO emails (id, account_id, account_seq, source, from_header, to_list, subject, html, text, status, last_event, last_event_at, attempts, handoff_attempt, stored_bytes, size, last_response, sent_at, created_at, updated_at)
SELECT 'eml_' || printf('%012X', at) || upper(hex(randomblob(7))), ${account}, (SELECT seq FROM accounts WHERE id = ${account}),
  'api', 'Shop <orders@bench.test>', json_array(lower(hex(randomblob(5))) || '@' || ${pick(DOMAINS, "n")}),
  ${pick(SUBJECTS, "n")} || ' #' || (100000 + abs(random()) % 900000), '<p>' || ${html} || n || '</p>',
  ${text} || n, 'delivered', 'delivered', at + 3000, 1, 1, 1800 + n % 500, 1800 + n % 500,
  ${QUEUED}, at + 1000, at, at + 3000
FROM (SELECT n, ${start} + (n * ${SPAN_MS}) / ${count} AS at FROM seq);`,
    `INSERT INTO email_recipients (email_seq, account_seq, address, state, response, attempts, created_at)
SELECT seq, account_seq, to_list ->> 0, 'accepted', last_response, 1, created_at ${inWorkspace};`,
    `INSERT INTO email_tags (email_seq, account_seq, name, value, position, created_at)
SELECT seq, account_seq, 'category', ${pick(CATEGORIES, "seq")}, 0, created_at ${inWorkspace}
UNION ALL SELECT seq, account_seq, 'customer', 'cus_' || lower(hex(randomblob(6))), 1, created_at ${inWorkspace};`,
    `INSERT INTO email_events (email_seq, type, detail, created_at)
SELECT seq, 'sent', last_response, created_at + 1000 ${inWorkspace}
UNION ALL SELECT seq, 'delivered', '250 2.0.0 OK ' || (abs(random()) % 10000000000) || ' - gsmtp', created_at + 3000 ${inWorkspace};`,
    `INSERT INTO account_usage (account_id, storage_bytes) SELECT ${account}, sum(stored_bytes) ${inWorkspace}
ON CONFLICT (account_id) DO UPDATE SET storage_bytes = excluded.storage_bytes;`,
    `SELECT created_at / ${DAY_MS} AS day, count(*) AS emails, sum(stored_bytes) AS bytes ${inWorkspace} GROUP BY day ORDER BY day;`,
    `SELECT id ${inWorkspace} AND seq % ${OBJECT_EVERY} = 0;`,
  ];
}

/** Puts a built message of MESSAGE_BYTES under each email's message key in the local R2. */
function putMessages(ids: string[]): void {
  if (ids.length === 0) return;
  const dir = mkdtempSync(join(tmpdir(), "retention-"));
  try {
    const message = join(dir, "message.eml");
    writeFileSync(message, `Subject: Your order\r\n\r\n${"x".repeat(MESSAGE_BYTES)}\r\n`);
    const list = join(dir, "objects.json");
    writeFileSync(list, JSON.stringify(ids.map((id) => ({ key: messageKey(id), file: message }))));
    const args = ["r2", "bulk", "put", BUCKET, "--local", `--filename=${list}`, "--ct=message/rfc822"];
    const result = spawnSync(WRANGLER, args, {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
    });
    if (result.status !== 0)
      throw new Error(`wrangler r2 bulk put failed: ${result.stderr || result.stdout}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether the local R2 still holds `key` (a wrangler of its own reads it). */
export function localObjectExists(key: string): boolean {
  const result = spawnSync(WRANGLER, ["r2", "object", "get", `${BUCKET}/${key}`, "--local", "--pipe"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CI: "true" },
  });
  return result.status === 0;
}

/** Emails the workspace still holds, read in its shard. */
export async function emailsLeft(w: Pick<RetentionWorkspace, "accountId" | "shard">): Promise<number> {
  const [counted] = await executeSql(
    `SELECT count(*) AS n FROM emails WHERE account_id = ${sqlText(w.accountId)};`,
    "local",
    w.shard,
  );
  return Number(counted?.results[0]?.n ?? Number.NaN);
}

/** The workspace's archive totals and storage, read in its shard. */
export async function archiveTotals(w: Pick<RetentionWorkspace, "accountId" | "shard">) {
  const account = sqlText(w.accountId);
  const [totals] = await executeSql(
    `SELECT (SELECT count(*) FROM email_archives WHERE account_id = ${account}) AS days,
  (SELECT coalesce(sum(emails), 0) FROM email_archives WHERE account_id = ${account}) AS emails,
  (SELECT coalesce(sum(parts), 0) FROM email_archives WHERE account_id = ${account}) AS parts,
  (SELECT coalesce(sum(bytes), 0) FROM email_archives WHERE account_id = ${account}) AS bytes,
  (SELECT count(*) FROM email_archive_parts WHERE account_id = ${account} AND state = 'writing') AS writing,
  (SELECT storage_bytes FROM account_usage WHERE account_id = ${account}) AS storage;`,
    "local",
    w.shard,
  );
  const row = totals?.results[0] ?? {};
  const n = (key: string) => Number(row[key] ?? Number.NaN);
  return {
    days: n("days"),
    emails: n("emails"),
    parts: n("parts"),
    bytes: n("bytes"),
    writing: n("writing"),
    storage: n("storage"),
  };
}

export async function seedRetentionWorkspace(count: number, htmlBytes: number): Promise<RetentionWorkspace> {
  const workspace = await createWorkspace(
    // In `DB`, where this seed's SQL goes: left to placement, it lands in the emptier shard.
    {
      name: "Benchmark retention",
      plan: "free",
      overrides: { requests_per_minute: 100_000_000 },
      shard: "DB",
    },
    "local",
  );
  const started = performance.now();
  const results = await executeSql(
    emailStatements(sqlText(workspace.account_id), count, htmlBytes, Date.now()).join("\n"),
    "local",
    workspace.shard,
  );
  const seedSeconds = (performance.now() - started) / 1000;
  const [days, ids] = results.slice(-2).map((r) => r.results);
  const perDay = new Map((days ?? []).map((row) => [Number(row.day), Number(row.emails)]));
  const seeded = [...perDay.values()].reduce((sum, n) => sum + n, 0);
  if (seeded !== count)
    throw new Error(`seeding retention: expected ${count} emails, the shard holds ${seeded}`);
  const withObject = (ids ?? []).map((row) => String(row.id));
  const objectsStarted = performance.now();
  putMessages(withObject);
  return {
    accountId: workspace.account_id,
    token: workspace.token,
    shard: workspace.shard,
    emails: count,
    perDay,
    withObject,
    storedBytes: (days ?? []).reduce((sum, row) => sum + Number(row.bytes), 0),
    seedSeconds,
    objectSeconds: (performance.now() - objectsStarted) / 1000,
  };
}
