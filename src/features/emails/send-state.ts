import { and, eq, inArray, lt, sql } from "drizzle-orm";
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
    db.select().from(accounts).where(eq(accounts.id, accountId)).limit(1),
    db
      .select()
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
