import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * One gzip NDJSON object in R2 per part: the emails of one UTC day (`day`, days since the epoch)
 * that one retention run archived and deleted (jobs/archive-emails.ts). A day's archive is its
 * parts in order, each of at most 1,000 emails: a quiet day has one, a busy day or one with an email held back (still queued) more.
 *
 * A part is claimed `writing` (its number taken, its token chosen) before its object is written,
 * and becomes `archived` in the one D1 batch that deletes its emails: an email is in exactly one
 * archived part. A `writing` part whose run died is swept with its object later; the token in the
 * object's key keeps a late writer from ever overwriting another run's part.
 */
export const emailArchiveParts = sqliteTable(
  "email_archive_parts",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    part: integer("part").notNull(),
    state: text("state", { enum: ["writing", "archived"] }).notNull(),
    token: text("token").notNull(),
    emails: integer("emails").notNull().default(0),
    bytes: integer("bytes").notNull().default(0),
    /** R2's ETag of the part's object: a day's download ETag is made from its parts'. */
    etag: text("etag"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.day, t.part] }),
    // Parts whose run died, swept with their objects; and parts past the archive's own retention.
    index("email_archive_parts_writing").on(t.createdAt).where(sql`state = 'writing'`),
    index("email_archive_parts_day").on(t.day),
  ],
);

/**
 * A day's archive as GET /v1/emails/archives lists it: its parts' totals, kept in the batch that
 * archives each part, so the list reads one row a day however many parts the day has.
 */
export const emailArchives = sqliteTable(
  "email_archives",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    day: integer("day").notNull(),
    parts: integer("parts").notNull().default(0),
    emails: integer("emails").notNull().default(0),
    bytes: integer("bytes").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
);
