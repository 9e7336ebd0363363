import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The email report's daily rollups, kept at write time so a report reads a few rows per day
 * whatever the number of emails. One row per workspace, `dim` and UTC day (days since the epoch):
 * `dim` is '' for the whole workspace, `i:<inbox id>` for a ticket reply's inbox and
 * `t:<name>=<value>` for each of the email's tags. Each counter moves in the batch of its fact.
 */
export const emailDaily = sqliteTable(
  "email_daily",
  {
    accountId: text("account_id").notNull(),
    dim: text("dim").notNull(),
    day: integer("day").notNull(),
    accepted: integer("accepted").notNull().default(0),
    sent: integer("sent").notNull().default(0),
    delivered: integer("delivered").notNull().default(0),
    bouncedHard: integer("bounced_hard").notNull().default(0),
    bouncedSoft: integer("bounced_soft").notNull().default(0),
    complained: integer("complained").notNull().default(0),
    opened: integer("opened").notNull().default(0),
    clicked: integer("clicked").notNull().default(0),
    suppressed: integer("suppressed").notNull().default(0),
    failed: integer("failed").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.dim, t.day] })],
);
