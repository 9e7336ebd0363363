import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../../db/client";
import { connections } from "../../db/schema";
import type { ConnectionRow } from "../connections/connections.repo";
import { claimQuery, handOffQuery } from "./delivery.repo";
import type { EmailRow } from "./emails.repo";

type Batch = [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]];

/**
 * Claims a queue batch's emails in one D1 round trip, each exactly as `claimEmail` would (the same
 * id twice is claimed once: the second claim runs after the first in the same transaction), with
 * the sender connections they are signed with, read in the same batch so a deleted or rotated key
 * is seen as it is now.
 */
export async function claimEmails(db: Db, ids: string[], now: number) {
  const claims = ids.map((id) => claimQuery(db, id, now));
  const senders = db
    .select()
    .from(connections)
    .where(
      sql`(${connections.id}, ${connections.accountId}) IN (SELECT connection_id, account_id FROM emails WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})))`,
    );
  const results = (await db.batch([...claims, senders] as unknown as Batch)) as unknown[];
  const claimed = (results.slice(0, ids.length) as EmailRow[][]).flat();
  const senderRows = (results.at(-1) ?? []) as ConnectionRow[];
  return { claimed, connections: new Map(senderRows.map((row) => [row.id, row])) };
}

/** `handOff` for several claims in one round trip; answers the ids still held with time to spare. */
export async function handOffEmails(db: Db, claimed: EmailRow[], now: number): Promise<Set<string>> {
  if (claimed.length === 0) return new Set();
  const results = (await db.batch(
    claimed.map((email) => handOffQuery(db, email, now)) as unknown as Batch,
  )) as Array<Array<{ id: string }>>;
  return new Set(results.flatMap((rows) => rows.map((row) => row.id)));
}
