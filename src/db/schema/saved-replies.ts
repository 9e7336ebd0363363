import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * A saved reply (a macro): a Markdown body with Liquid variables, an optional inbox it belongs
 * to, and the ticket changes it applies when used (`actions`: JSON `{ status?, add_tags?,
 * assignee_id? }`). `inbox_id` and `created_by` are not foreign keys: an inbox or user that goes
 * leaves the reply, which then offers itself nowhere (scope) or names no author.
 */
export const savedReplies = sqliteTable(
  "saved_replies",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    body: text("body").notNull(),
    inboxId: text("inbox_id"),
    actions: text("actions").notNull().default("{}"),
    createdBy: text("created_by"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  // A workspace has tens or hundreds of replies: an inbox's list filters the workspace's page.
  (t) => [index("saved_replies_account_created").on(t.accountId, t.createdAt, t.id)],
);
