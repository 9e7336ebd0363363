import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * The total of trigger-kept counter rows (0 when there are none): every list whose total comes
 * from a counter table (tickets by tag, request logs, events, campaign recipients) adds them up so.
 */
export const counterSum = (column: SQLiteColumn): SQL<number> => sql<number>`coalesce(sum(${column}), 0)`;
