import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { inboxes } from "./support";

/**
 * An SLA policy (docs/sla.md): `targets` is the JSON of minutes per priority and target, `hours`
 * "calendar" or the JSON of a business schedule, `pause_statuses` a JSON array of statuses.
 */
export const slaPolicies = sqliteTable(
  "sla_policies",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    targets: text("targets").notNull(),
    hours: text("hours").notNull(),
    pauseStatuses: text("pause_statuses").notNull(),
    warningBefore: integer("warning_before").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("sla_policies_account_created").on(t.accountId, t.createdAt, t.id)],
);

/**
 * The inboxes a policy covers. The inbox is the key: an inbox is under one policy at most, and a
 * ticket's policy is found by its inbox alone.
 */
export const slaPolicyInboxes = sqliteTable(
  "sla_policy_inboxes",
  {
    inboxId: text("inbox_id")
      .primaryKey()
      .references(() => inboxes.id, { onDelete: "cascade" }),
    policyId: text("policy_id")
      .notNull()
      .references(() => slaPolicies.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
  },
  (t) => [index("sla_policy_inboxes_policy").on(t.policyId)],
);
