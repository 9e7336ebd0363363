import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/client";
import { insertEmailRow, insertEmailRowsIf } from "../../src/features/emails/email-insert";
import type { NewEmailRow } from "../../src/features/emails/emails.repo";
import { newId } from "../../src/lib/ids";
import { db, seedWorkspace, shardD1Of } from "./helpers";

/**
 * insertEmailRowsIf writes a round's email rows in one statement a group, each on its own
 * condition: what it stores must be exactly what one insert an email stored.
 */

/** A row with every kind of value a column holds: text of any script, JSON text, numbers, booleans, nulls. */
function rowOf(accountId: string, n: number, extra: Partial<NewEmailRow> = {}): NewEmailRow {
  return {
    id: newId("eml"),
    accountId,
    source: "campaign",
    from: `"Ünïcode \\"quoted\\" ${n}" <news@example.com>`,
    to: JSON.stringify([`r${n}@example.com`]),
    subject: `Subject ${n} — 日本語 ✓ 'single' "double" \\ backslash`,
    html: `<p>Hello ${n}</p>\n<a href="https://example.com/?a=1&b=2">link</a>`,
    text: null,
    headers: JSON.stringify({ "X-Entity": `00${n}` }),
    trackOpens: n % 2 === 0,
    trackClicks: true,
    status: "queued",
    lastEvent: "queued",
    lastEventAt: 1_764_000_000_123 + n,
    campaignId: "cmp_01TESTTESTTESTTESTTESTTEST",
    messageId: `00${n}`,
    storedBytes: 1234 + n,
    createdAt: 1_764_000_000_000 + n,
    updatedAt: 1_764_000_000_000 + n,
    ...extra,
  } as NewEmailRow;
}

async function storedRows(ids: string[]) {
  const { results } = await shardD1Of()
    .prepare("SELECT * FROM emails WHERE id IN (SELECT value FROM json_each(?)) ORDER BY seq")
    .bind(JSON.stringify(ids))
    .all<Record<string, unknown>>();
  return results;
}

/** A stored row without what differs between two inserts of the same row: its numbers and id. */
const comparable = ({ seq: _seq, id: _id, ...rest }: Record<string, unknown>) => rest;

describe("insertEmailRowsIf", () => {
  it("stores each row exactly as one insert an email does, in the order given", async () => {
    const ws = await seedWorkspace();
    const d = db();
    const rows = [0, 1, 2, 3].map((n) => rowOf(ws.accountId, n));
    const alone = rows.map((row) => ({ ...row, id: newId("eml") }));
    await runBatch(
      d,
      alone.map((row) => insertEmailRow(d, row)),
    );
    await runBatch(d, insertEmailRowsIf(rows, { holds: () => sql`1` }));

    const grouped = await storedRows(rows.map((r) => r.id));
    const single = await storedRows(alone.map((r) => r.id));
    expect(grouped.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(grouped.map(comparable)).toEqual(single.map(comparable));
    // Columns the rows leave out take their defaults; the typed ones keep their types.
    expect(grouped[0]).toMatchObject({
      cc_list: "[]",
      attempts: 0,
      track_opens: 1,
      message_id: "000",
      text: null,
    });
    expect(typeof grouped[0]?.created_at).toBe("number");
  });

  it("writes only the rows whose own condition holds as the statement runs", async () => {
    const ws = await seedWorkspace();
    const d = db();
    const rows = [0, 1, 2, 3, 4].map((n) => rowOf(ws.accountId, n));
    const allowed = new Set([rows[1]?.id, rows[4]?.id]);
    await runBatch(
      d,
      insertEmailRowsIf(rows, {
        keyOf: (_, i) => `k${i}`,
        holds: (email) => sql`${email.key} IN ('k1', 'k4')`,
      }),
    );
    expect((await storedRows(rows.map((r) => r.id))).map((r) => r.id)).toEqual(
      rows.filter((r) => allowed.has(r.id)).map((r) => r.id),
    );
  });

  it("groups rows by the columns they set, and a row too long for a group goes alone", async () => {
    const ws = await seedWorkspace();
    const d = db();
    const plain = [0, 1].map((n) => rowOf(ws.accountId, n));
    const withCc = rowOf(ws.accountId, 2, { cc: JSON.stringify(["cc@example.com"]) });
    const long = rowOf(ws.accountId, 3, { html: `<p>${"é".repeat(700_000)}</p>` });
    const rows = [...plain, withCc, long, rowOf(ws.accountId, 4)];
    const statements = insertEmailRowsIf(rows, { holds: () => sql`1` });
    // [0, 1], [2], [3] alone, [4]
    expect(statements).toHaveLength(4);
    await runBatch(d, statements);
    const stored = await storedRows(rows.map((r) => r.id));
    expect(stored.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(stored[2]?.cc_list).toBe('["cc@example.com"]');
    expect(stored[3]?.html).toBe(long.html);
  });
});
