import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { type Db, runBatch } from "../../db/client";
import { accounts, connections } from "../../db/schema";
import { mayActSql } from "../../lib/workspace-gate";
import type { ConnectionRow } from "../connections/connections.repo";
import { claimQuery, type HandOffItem, handOffCounts, handOffWrites, heldBy } from "./delivery.repo";
import type { EmailRow } from "./emails.repo";

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * Claims a queue batch's emails in one D1 round trip and one statement, each exactly as
 * `claimEmail` would (the same id twice is claimed once), with
 * the sender connections they are signed with, read in the same batch so a deleted or rotated key
 * is seen as it is now, and which of their workspaces are suspended.
 */
export async function claimEmails(db: Db, ids: string[], now: number) {
  const claims = claimQuery(db, ids, now);
  const senders = db
    .select()
    .from(connections)
    .where(
      sql`(${connections.id}, ${connections.accountId}) IN (SELECT connection_id, account_id FROM emails WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`,
    );
  // The workspaces among these that may not act, read with the claim (lib/workspace-gate.ts).
  const suspended = db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      sql`NOT ${mayActSql(accounts.id)} AND ${accounts.id} IN (SELECT account_id FROM emails WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`,
    );
  const results = (await db.batch([claims, senders, suspended] as unknown as Batch)) as unknown[];
  const claimed = (results[0] ?? []) as EmailRow[];
  const senderRows = (results.at(-2) ?? []) as ConnectionRow[];
  const suspendedRows = (results.at(-1) ?? []) as Array<{ id: string }>;
  return {
    claimed,
    connections: new Map(senderRows.map((row) => [row.id, row])),
    suspended: new Set(suspendedRows.map((row) => row.id)),
  };
}

/**
 * `handOff` for several emails' envelopes in one round trip, counted together (on the day of the
 * round's latest hand-off); answers, per item, whether its claim held.
 */
export async function handOffEmails(db: Db, items: HandOffItem[]): Promise<boolean[]> {
  if (items.length === 0) return [];
  const counts = handOffCounts(
    items.map((item) => item.email),
    Math.max(...items.map((item) => item.now)),
  );
  const results = await runBatch(db, [...counts, ...handOffWrites(items)]);
  const held = heldBy(results.at(-1));
  return items.map((item) => held.has(item.email.id));
}
