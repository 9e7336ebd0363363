import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { sha256Hex } from "../../lib/crypto";

export const ATTEMPT_WINDOW_MS = 15 * 60_000;
/** Sign-in emails asked for one address in the window. */
export const ATTEMPTS_PER_EMAIL = 5;
/** Sign-in attempts of any kind (asking for a link, using one, accepting an invitation) from one IP. */
export const ATTEMPTS_PER_IP = 30;

/**
 * A family of attempts counted apart from the others: sign-in, or one of the public portal's forms.
 * All share the table and the 15-minute window; the scope prefixes the hashed keys, so one family's
 * attempts never count against another's.
 */
export interface AttemptBucket {
  scope: string;
  perIp: number;
  perEmail: number;
}

/** Sign-in keeps the unscoped keys it has always had. */
export const SIGN_IN: AttemptBucket = { scope: "", perIp: ATTEMPTS_PER_IP, perEmail: ATTEMPTS_PER_EMAIL };

/** The client's address as Cloudflare reports it; one shared bucket when there is none (local tools). */
export const clientIp = (header: string | undefined) => header?.trim() || "unknown";

/**
 * Records one attempt if the email and the IP are both under their bucket's limits in the last 15
 * minutes, in one conditional INSERT (so concurrent attempts cannot pass a limit together); answers
 * whether it was admitted. Keys are stored as SHA-256: the table holds no address in the clear.
 * Attempts older than the window are pruned in the same batch.
 */
export async function admitAttempt(
  db: Db,
  bucket: AttemptBucket,
  attempt: { email?: string; ip: string },
  now: number,
): Promise<boolean> {
  const since = now - ATTEMPT_WINDOW_MS;
  const emailHash = attempt.email ? await sha256Hex(`${bucket.scope}email:${attempt.email}`) : null;
  const ipHash = await sha256Hex(`${bucket.scope}ip:${attempt.ip}`);
  const [, inserted] = await runBatch(db, [
    sql`DELETE FROM sign_in_attempts WHERE created_at <= ${since}`,
    sql`
      INSERT INTO sign_in_attempts (email_hash, ip_hash, created_at)
      SELECT ${emailHash}, ${ipHash}, ${now}
      WHERE (SELECT count(*) FROM sign_in_attempts WHERE ip_hash = ${ipHash} AND created_at > ${since}) < ${bucket.perIp}
        AND (${emailHash} IS NULL
          OR (SELECT count(*) FROM sign_in_attempts WHERE email_hash = ${emailHash} AND created_at > ${since}) < ${bucket.perEmail})
      RETURNING id`,
  ]);
  return (inserted?.results.length ?? 0) === 1;
}

export const admitSignInAttempt = (db: Db, attempt: { email?: string; ip: string }, now: number) =>
  admitAttempt(db, SIGN_IN, attempt, now);
