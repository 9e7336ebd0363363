import { type SQL, sql } from "drizzle-orm";
import { DAY_MS, EMAIL_RETENTION_DAYS_SQL } from "../lib/email-retention";

/**
 * `keptFrom` (lib/email-retention.ts) in SQL, for the accounts row `a`: the first instant whose
 * emails the workspace still keeps. Records that only matter while their email exists (its
 * bounces, the automation history that sent it) go once they are older than this.
 */
export const emailHistoryStart = (now: number): SQL =>
  sql`((${Math.floor(now / DAY_MS)} - ${EMAIL_RETENTION_DAYS_SQL}) * ${DAY_MS})`;
