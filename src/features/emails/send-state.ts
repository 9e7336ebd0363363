import { and, eq, getTableColumns, inArray, lt, sql, type Table } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, accountUsage, connections, idempotencyKeys, suppressions } from "../../db/schema";
import { IDEMPOTENCY_TTL_MS, type Idempotency } from "../../lib/idempotency";

/**
 * Everything the checks of a send need, read in one D1 round trip: a stored idempotent answer,
 * the account, its connections for the sender domains, its usage and which recipients are
 * suppressed. (Expired idempotency keys are dropped in the same batch.)
 */
export async function loadSendState(
  db: Db,
  accountId: string,
  domains: string[],
  recipients: string[],
  idem: Idempotency | null,
  now: number,
) {
  const idemKey = idem?.key ?? "";
  const [, stored, account, connectionRows, usage, suppressed] = await db.batch([
    db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.accountId, accountId),
          eq(idempotencyKeys.key, idemKey),
          lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS),
        ),
      ),
    db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, idemKey)))
      .limit(1),
    ...sendStateQueries(db, accountId, domains, recipients),
  ]);
  return {
    stored: idem ? (stored[0] ?? null) : null,
    account: account[0] ?? null,
    connections: new Map(connectionRows.map((row) => [row.domain, row])),
    usage: usage[0] ?? null,
    suppressed: suppressed.map((row) => row.email),
  };
}

export type SendState = Awaited<ReturnType<typeof loadSendState>>;

/** What a send reads of a sender domain's connection. */
export type SenderConnection = Pick<typeof connections.$inferSelect, "id" | "domain" | "status">;

/**
 * The reads of a send's checks but the idempotent answer (account, sender connections, usage,
 * suppressed recipients), as queries for a batch: `loadSendState`'s, or the first statements of a
 * batch that also writes (`sendStateOf` reads their answers).
 */
export function sendStateQueries(db: Db, accountId: string, domains: string[], recipients: string[]) {
  return [
    db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1),
    // The columns the checks need: a connection's keys and DNS checks (kilobytes) stay unread.
    db
      .select({ id: connections.id, domain: connections.domain, status: connections.status })
      .from(connections)
      .where(
        and(
          eq(connections.accountId, accountId),
          inArray(connections.domain, domains.length > 0 ? domains : [""]),
        ),
      ),
    db.select().from(accountUsage).where(eq(accountUsage.accountId, accountId)).limit(1),
    db
      .select({ email: suppressions.email })
      .from(suppressions)
      .where(
        and(
          eq(suppressions.accountId, accountId),
          sql`${suppressions.email} IN (SELECT value FROM json_each(${JSON.stringify(recipients)}))`,
        ),
      ),
  ] as const;
}

/** A whole-table row as D1 answers it (keys are column names) in drizzle's shape. */
function rowOf<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? value : column.mapFromDriverValue(value);
  }
  return row as T["$inferSelect"];
}

/** The state `sendStateQueries` read, from D1's raw answers to them (run with `runBatch`). */
export function sendStateOf(results: D1Result[]): SendState {
  const [account, connectionRows, usage, suppressed] = results.map(
    (result) => result.results as Array<Record<string, unknown>>,
  );
  const accountRow = account?.[0];
  const usageRow = usage?.[0];
  return {
    stored: null,
    account: accountRow ? rowOf(accounts, accountRow) : null,
    connections: new Map(
      (connectionRows ?? []).map((raw): [string, SenderConnection] => [
        String(raw.domain),
        { id: String(raw.id), domain: String(raw.domain), status: raw.status as SenderConnection["status"] },
      ]),
    ),
    usage: usageRow ? rowOf(accountUsage, usageRow) : null,
    suppressed: (suppressed ?? []).map((raw) => String(raw.email)),
  };
}
