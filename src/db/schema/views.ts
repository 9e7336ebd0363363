import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { users } from "./people";

/**
 * A saved ticket list: `filters` is the JSON of the list's query (src/features/views). A view with
 * no owner is shared with the workspace; one with an owner is that user's alone and goes with them.
 * The built-in views (Unassigned, Mine, All open) are not rows: they are constants of the code.
 */
export const ticketViews = sqliteTable(
  "ticket_views",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    ownerUserId: text("owner_user_id").references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    filters: text("filters").notNull().default("{}"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("ticket_views_account_created").on(t.accountId, t.createdAt, t.id),
    index("ticket_views_owner").on(t.ownerUserId),
  ],
);
