import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How far a workspace's copy onto this shard has come (features/workspace-moves): written in the
 * same batch as each copied chunk, so a copy stopped at any point resumes after the last chunk that
 * landed, and no chunk is written twice (rows given new numbers here could not be told apart).
 * Removed once the move is over.
 */
export const moveCursors = sqliteTable("move_cursors", {
  accountId: text("account_id").primaryKey(),
  /** The position in the list of moved tables (workspace-moves/tables.ts). */
  pass: integer("pass").notNull(),
  /** The ordering key of the last row copied in that pass (JSON array), or null at its start. */
  after: text("after"),
  updatedAt: integer("updated_at").notNull(),
});
