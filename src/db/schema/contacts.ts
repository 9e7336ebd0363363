import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { customers } from "./support";

/**
 * A named set of the workspace's customers that campaigns send to. `member_count` is kept by
 * triggers on contact_group_members (see the migration), so it is exact whatever adds or removes
 * members, cascades included, and the members list's total never counts rows.
 */
export const contactGroups = sqliteTable(
  "contact_groups",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** lower(name): names are unique per workspace whatever their case. */
    nameKey: text("name_key").notNull(),
    description: text("description"),
    memberCount: integer("member_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("contact_groups_account_name").on(t.accountId, t.nameKey),
    index("contact_groups_account_created").on(t.accountId, t.createdAt, t.id),
  ],
);

export const contactGroupMembers = sqliteTable(
  "contact_group_members",
  {
    groupId: text("group_id")
      .notNull()
      .references(() => contactGroups.id, { onDelete: "cascade" }),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    /** When the customer joined the group. */
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.customerId] }),
    index("contact_group_members_group_created").on(t.groupId, t.createdAt, t.customerId),
    // Deleting a customer finds its memberships through this.
    index("contact_group_members_customer").on(t.customerId),
  ],
);

export const UNSUBSCRIBE_METHODS = ["one_click", "link", "api"] as const;
export type UnsubscribeMethod = (typeof UNSUBSCRIBE_METHODS)[number];

/**
 * How and when each currently unsubscribed customer unsubscribed: one row per customer, written in
 * the same batch as `customers.unsubscribed`, removed when the customer is subscribed again. The
 * first way wins; a later unsubscribe of an unsubscribed customer changes nothing. `campaign_id`
 * has no foreign key: only draft campaigns can be deleted, and those send no unsubscribe links.
 */
export const unsubscribes = sqliteTable(
  "unsubscribes",
  {
    customerId: text("customer_id")
      .primaryKey()
      .references(() => customers.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    campaignId: text("campaign_id"),
    method: text("method", { enum: UNSUBSCRIBE_METHODS }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("unsubscribes_account_created").on(t.accountId, t.createdAt, t.customerId)],
);
