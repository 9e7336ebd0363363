import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { emailDaily, inboxes } from "../../db/schema";

/**
 * The rollup rows of one dimension over whole UTC days [fromDay, toDay): one range over the
 * primary key (account, dim, day), so its cost follows the days asked, never the emails sent.
 */
export const emailDailyQuery = (db: Db, accountId: string, dim: string, fromDay: number, toDay: number) =>
  db
    .select()
    .from(emailDaily)
    .where(
      and(
        eq(emailDaily.accountId, accountId),
        eq(emailDaily.dim, dim),
        gte(emailDaily.day, fromDay),
        lt(emailDaily.day, toDay),
      ),
    );

/** `emailDailyQuery`, and with an inbox whether the workspace has it, in the same round trip. */
export async function readEmailDaily(
  db: Db,
  accountId: string,
  dim: string,
  fromDay: number,
  toDay: number,
  inboxId?: string,
) {
  const inbox = db
    .select({ found: sql<number>`1` })
    .from(inboxes)
    .where(and(eq(inboxes.id, inboxId ?? ""), eq(inboxes.accountId, accountId)));
  const [days, found] = await db.batch([emailDailyQuery(db, accountId, dim, fromDay, toDay), inbox]);
  return { days, inboxFound: found.length > 0 };
}
