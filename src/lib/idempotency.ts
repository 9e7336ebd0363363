import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { sha256Hex } from "./crypto";
import { conflict } from "./errors";

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

/** JSON with object keys sorted, so the same body hashes the same whatever its key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export interface Idempotency {
  key: string;
  hash: string;
}

export async function idempotencyOf(key: string | undefined, body: unknown): Promise<Idempotency | null> {
  return key ? { key, hash: await sha256Hex(`${canonicalJson(body)}`) } : null;
}

/** The reads of `storedAnswer`, for a batch that reads more in the same round trip. */
export function storedAnswerQueries(db: Db, accountId: string, idem: Idempotency, now: number) {
  return [
    db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.accountId, accountId),
          eq(idempotencyKeys.key, idem.key),
          lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS),
        ),
      ),
    db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, idem.key)))
      .limit(1),
  ] as const;
}

/**
 * The stored answer for this key, if any (expired ones are dropped first). The same key with a
 * different body is a 409: the client reused a key by mistake.
 */
export async function storedAnswer(db: Db, accountId: string, idem: Idempotency, now: number) {
  const [, rows] = await db.batch(storedAnswerQueries(db, accountId, idem, now));
  return answerFrom(rows[0] ?? null, idem);
}

/** The replayable answer of a stored key, or the 409 of a key reused with another body. */
export function answerFrom(row: typeof idempotencyKeys.$inferSelect | null, idem: Idempotency) {
  if (!row) return null;
  if (row.requestHash !== idem.hash) {
    throw conflict(
      "idempotency_key_reused",
      "Idempotency key reused",
      "This Idempotency-Key was used with a different request body in the last 24 hours.",
    );
  }
  return { status: row.responseStatus, body: JSON.parse(row.responseBody) as unknown };
}

/** The statement that stores an answer; it fails on a concurrent twin, which rolls its batch back. */
export function storeAnswer(
  db: Db,
  accountId: string,
  idem: Idempotency,
  status: number,
  body: unknown,
  now: number,
) {
  return db.insert(idempotencyKeys).values({
    accountId,
    key: idem.key,
    requestHash: idem.hash,
    responseStatus: status,
    responseBody: JSON.stringify(body),
    createdAt: now,
  });
}
