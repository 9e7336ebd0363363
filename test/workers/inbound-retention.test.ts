import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { INBOUND_RECORD_RETENTION_MS, pruneInboundRecords } from "../../src/jobs/prune-inbound-records";
import { newId } from "../../src/lib/ids";
import { db, seedWorkspace } from "./helpers";
import { expectIndexed, planOf } from "./query-plan";

/** A row of `table` created at `createdAt`, with bytes in R2 under its raw key. */
async function record(table: "dropped_mail" | "mail_reports", accountId: string, createdAt: number) {
  const key = `test-retention/${crypto.randomUUID()}.eml`;
  await env.FILES.put(key, "From: a@b.test\r\n\r\nx");
  const insert =
    table === "dropped_mail"
      ? env.DB_2.prepare(
          "INSERT INTO dropped_mail (public_id, account_id, inbox_id, reason, mail_from, rcpt_to, raw_key, raw_size, created_at) VALUES (?, ?, 'inb_x', 'loop', '', 'a@b.test', ?, 20, ?)",
        ).bind(newId("drp"), accountId, key, createdAt)
      : env.DB_2.prepare(
          "INSERT INTO mail_reports (public_id, account_id, outcome, kind, action, detail, mail_from, rcpt_to, raw_key, raw_size, created_at) VALUES (?, ?, 'unmatched', 'bounce', 'ignored', '[]', '', 'a@b.test', ?, 20, ?)",
        ).bind(newId("rpt"), accountId, key, createdAt);
  await insert.run();
  return key;
}

const rowsWithKeys = async (keys: string[]) => {
  const { results } = await env.DB_2.prepare(
    "SELECT raw_key FROM dropped_mail WHERE raw_key IN (SELECT value FROM json_each(?1)) UNION ALL SELECT raw_key FROM mail_reports WHERE raw_key IN (SELECT value FROM json_each(?1))",
  )
    .bind(JSON.stringify(keys))
    .all<{ raw_key: string }>();
  return results.map((r) => r.raw_key).sort();
};

describe("retention of dropped mail and reports", () => {
  it("deletes rows older than 30 days with their bytes in R2, and keeps younger ones", async () => {
    const ws = await seedWorkspace();
    const now = Date.now() + 365 * 86_400_000;
    const old = now - INBOUND_RECORD_RETENTION_MS - 1;
    const young = now - INBOUND_RECORD_RETENTION_MS + 60_000;
    const expired = [
      await record("dropped_mail", ws.accountId, old),
      await record("mail_reports", ws.accountId, old),
    ];
    const kept = [
      await record("dropped_mail", ws.accountId, young),
      await record("mail_reports", ws.accountId, young),
    ];

    expect(await pruneInboundRecords(db(), env.FILES, now)).toBeGreaterThanOrEqual(2);
    expect(await rowsWithKeys([...expired, ...kept])).toEqual([...kept].sort());
    for (const key of expired) expect(await env.FILES.head(key)).toBeNull();
    for (const key of kept) expect(await env.FILES.head(key)).not.toBeNull();
  });

  it("finds the expired rows through the created_at indexes", async () => {
    for (const table of ["dropped_mail", "mail_reports"]) {
      const plan = await planOf(
        sql`SELECT id, raw_key FROM ${sql.raw(table)} WHERE created_at < ${Date.now()} ORDER BY created_at LIMIT 500`,
      );
      expectIndexed(plan, table);
    }
  });
});
