/**
 * Workspaces of tickets with messages for the search scenario, written straight into the local D1
 * shard the workspace lives in (`executeSql`, in a local runtime of the bench process): the search index's triggers index
 * every row as it is inserted, as they do for the API's writes.
 */

import { executeSql } from "../../scripts/lib/sql";
import { createWorkspace } from "../../scripts/lib/workspace";
import { sqlText } from "../../scripts/lib/wrangler";
import { newId } from "../../src/lib/ids";

const DAY_MS = 86_400_000;
const SPREAD_MS = 30 * DAY_MS;
const ROWS_PER_STATEMENT = 50_000;
/** Words a message is made of: made-up syllable words, so trigrams spread as in real text. */
const VOCABULARY = 3_000;
const WORDS_PER_MESSAGE = 40;
/** A word in exactly MARKED tickets of every seed (one message each): the search measured. */
export const MARKER = "zephyrquartz";
export const MARKED = 20;

export interface SearchWorkspace {
  accountId: string;
  shard: string;
  token: string;
  tickets: number;
  messages: number;
  seedSeconds: number;
}

function vocabulary(): string[] {
  const onsets = [
    "b",
    "c",
    "d",
    "f",
    "g",
    "h",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "w",
    "br",
    "st",
    "pl",
    "tr",
  ];
  const vowels = ["a", "e", "i", "o", "u", "ai", "ou"];
  const words: string[] = [];
  for (let i = 0; words.length < VOCABULARY; i++) {
    const syllables = 1 + (i % 3);
    let word = "";
    let x = i;
    for (let s = 0; s <= syllables; s++) {
      word += `${onsets[x % onsets.length]}${vowels[(x >> 3) % vowels.length]}`;
      x = Math.floor(x / 7) + s * 13;
    }
    words.push(word);
  }
  return words;
}

/**
 * A message's text in SQL: WORDS_PER_MESSAGE words picked by a hash of the row number, from the
 * vocabulary named once per statement (D1 refuses statements over 100 KB).
 */
function bodyExpression(words: string): string {
  const picks = Array.from(
    { length: WORDS_PER_MESSAGE },
    (_, k) =>
      `json_extract(${words}, '$[' || ((n * 2654435761 + ${k * 40503 + 17}) % 1000003 % ${VOCABULARY}) || ']')`,
  );
  return picks.join(" || ' ' || ");
}

/** `count` tickets with `perTicket` messages each, created over the last 30 days. */
export async function seedSearchWorkspace(
  name: string,
  count: number,
  perTicket: number,
): Promise<SearchWorkspace> {
  const workspace = await createWorkspace(
    { name, plan: "enterprise", overrides: { requests_per_minute: 100_000_000 } },
    "local",
  );
  const account = sqlText(workspace.account_id);
  const now = Date.now();
  const inbox = newId("inb");
  const customer = newId("cus");
  const words = sqlText(JSON.stringify(vocabulary()));
  const messages = count * perTicket;
  const markEvery = Math.max(1, Math.floor(messages / MARKED));
  const statements = [
    `INSERT INTO inboxes (id, account_id, name, email_address, created_at, updated_at) VALUES (${sqlText(inbox)}, ${account}, ${sqlText(name)}, ${sqlText(`search-${workspace.account_id.toLowerCase()}@bench.test`)}, ${now}, ${now});`,
    `INSERT INTO customers (id, account_id, email, name, created_at, updated_at) VALUES (${sqlText(customer)}, ${account}, 'customer@example.com', 'Bench Customer', ${now}, ${now});`,
  ];
  for (let first = 1; first <= count; first += ROWS_PER_STATEMENT) {
    const last = Math.min(count, first + ROWS_PER_STATEMENT - 1);
    const createdAt = `${now - SPREAD_MS} + (n * ${SPREAD_MS}) / ${count}`;
    statements.push(`WITH RECURSIVE seq(n) AS (SELECT ${first} UNION ALL SELECT n + 1 FROM seq WHERE n < ${last})
INSERT INTO tickets (id, account_id, inbox_id, customer_id, number, client_id, subject, status, priority, shared_uuid, metadata, message_count, created_at, updated_at)
SELECT 'tkv_' || upper(hex(randomblob(13))), ${account}, ${sqlText(inbox)}, ${sqlText(customer)}, n, 'TKT-' || printf('%05d', n),
  'Bench ticket ' || n || ' ' || json_extract(${words}, '$[' || (n % ${VOCABULARY}) || ']'), 'open', 'normal',
  'shr_' || upper(hex(randomblob(13))), '{}', ${perTicket}, ${createdAt}, ${createdAt} FROM seq;`);
  }
  for (let first = 1; first <= messages; first += ROWS_PER_STATEMENT) {
    const last = Math.min(messages, first + ROWS_PER_STATEMENT - 1);
    statements.push(`WITH RECURSIVE seq(n) AS (SELECT ${first} UNION ALL SELECT n + 1 FROM seq WHERE n < ${last}),
  vocabulary(words) AS (SELECT ${words})
INSERT INTO messages (id, account_id, ticket_id, type, direction, author_type, body_text, status, created_at, updated_at)
SELECT 'msg_' || upper(hex(randomblob(13))), ${account}, t.id, 'customer', 'inbound', 'customer',
  ${bodyExpression("vocabulary.words")} || CASE WHEN n % ${markEvery} = 0 AND n / ${markEvery} <= ${MARKED} THEN ' ${MARKER}' ELSE '' END,
  'received', t.created_at + n % ${perTicket}, t.created_at + n % ${perTicket}
FROM seq CROSS JOIN vocabulary JOIN tickets t ON t.account_id = ${account} AND t.number = (n - 1) / ${perTicket} + 1;`);
  }
  statements.push(`UPDATE accounts SET ticket_sequence = ${count} WHERE id = ${account};`);
  statements.push(`SELECT count(*) AS messages FROM messages WHERE account_id = ${account};`);
  const started = performance.now();
  const results = await executeSql(statements.join("\n"), "local", workspace.shard);
  const stored = Number(results.at(-1)?.results[0]?.messages);
  if (stored !== messages) throw new Error(`seeding ${name}: expected ${messages} messages, found ${stored}`);
  return {
    accountId: workspace.account_id,
    shard: workspace.shard,
    token: workspace.token,
    tickets: count,
    messages,
    seedSeconds: (performance.now() - started) / 1000,
  };
}

/** Deletes what `seedSearchWorkspace` wrote (the triggers take its index rows with it). */
export async function removeSearchWorkspaces(seeded: SearchWorkspace[]): Promise<void> {
  for (const w of seeded) {
    const id = sqlText(w.accountId);
    await executeSql(
      ["messages", "tickets", "customers", "inboxes"]
        .map((t) => `DELETE FROM ${t} WHERE account_id = ${id};`)
        .join("\n"),
      "local",
      w.shard,
    );
  }
}
