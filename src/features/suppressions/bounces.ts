import { sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { newId } from "../../lib/ids";
import { deliveryOutcomes } from "../../mail/delivery-outcomes";

export type BounceKind = "hard" | "soft" | "complaint";

export interface Bounce {
  accountId: string;
  email: string;
  kind: BounceKind;
  emailId: string | null;
  detail: string | null;
}

export const SOFT_BOUNCE_WINDOW_MS = 7 * 86_400_000;
const SOFT_BOUNCES_TO_SUPPRESS = 3;

const REASONS = { hard: "hard_bounce", complaint: "complaint", soft: "soft_bounces" } as const;

/**
 * The statements that record a bounce or complaint, for the caller's batch. A hard bounce or a
 * complaint suppresses the address at once; a soft one counts once per email and recipient (the
 * `bounces_soft_once` index ignores an email's retries) and the third within 7 days suppresses.
 */
export function bounceStatements(bounce: Bounce, now: number): Statement[] {
  const email = bounce.email.toLowerCase();
  const { accountId, kind, emailId, detail } = bounce;
  const insert = sql`
    INSERT INTO bounces (account_id, email, kind, email_id, detail, created_at)
    VALUES (${accountId}, ${email}, ${kind}, ${emailId}, ${detail}, ${now})
    ON CONFLICT DO NOTHING`;
  const due =
    kind === "soft"
      ? sql`(SELECT count(*) FROM bounces WHERE account_id = ${accountId} AND email = ${email}
          AND kind = 'soft' AND created_at >= ${now - SOFT_BOUNCE_WINDOW_MS}) >= ${SOFT_BOUNCES_TO_SUPPRESS}`
      : sql`1`;
  const suppress = sql`
    INSERT INTO suppressions (id, account_id, email, reason, source_email_id, detail, created_at)
    SELECT ${newId("sup")}, ${accountId}, ${email}, ${REASONS[kind]}, ${emailId}, ${detail}, ${now}
    WHERE ${due}
    ON CONFLICT DO NOTHING`;
  // Before the insert, while it can still tell a first bounce of this email and recipient.
  const counted = emailId ? deliveryOutcomes.bounced(emailId, email, kind, now) : [];
  return [...counted, insert, suppress];
}

/** Records one bounce on its own; answers whether the address is suppressed now. */
export async function recordBounce(db: Db, bounce: Bounce, now = Date.now()): Promise<boolean> {
  const email = bounce.email.toLowerCase();
  const results = await runBatch(db, [
    ...bounceStatements(bounce, now),
    sql`SELECT 1 AS suppressed FROM suppressions WHERE account_id = ${bounce.accountId} AND email = ${email}`,
  ]);
  return (results.at(-1)?.results.length ?? 0) > 0;
}
