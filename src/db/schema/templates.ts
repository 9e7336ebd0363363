import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * A stored email template (Resend's templates API). Its content lives in `template_versions`:
 * `current_version_id` is the version the API shows and edits (an unpublished draft, or the last
 * published version when there is no draft); `published_version_id` is the one sends use. Neither
 * is a foreign key: the two tables point at each other, and a template's versions go with it in
 * the batch that removes it.
 */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /**
     * `template`, or `layout`: a frame with one content slot that templates name (`layout_id`) so
     * the header, footer and unsubscribe block live in one place. A layout is never sent alone.
     */
    type: text("type", { enum: ["template", "layout"] })
      .notNull()
      .default("template"),
    /** Another name a send or a lookup may use instead of the id; unique in the workspace. */
    alias: text("alias"),
    currentVersionId: text("current_version_id").notNull(),
    publishedVersionId: text("published_version_id"),
    publishedAt: integer("published_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("templates_account_id").on(t.accountId, t.id),
    uniqueIndex("templates_account_alias").on(t.accountId, t.alias),
    index("templates_account_type").on(t.accountId, t.type, t.id),
  ],
);

/**
 * One version of a template's content. A draft (`published_at` null) is edited in place; a
 * published version never changes again, so an email names the exact content it was built from.
 * `reply_to` and `variables` are JSON arrays.
 */
export const templateVersions = sqliteTable(
  "template_versions",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    templateId: text("template_id").notNull(),
    name: text("name").notNull(),
    subject: text("subject"),
    html: text("html").notNull(),
    text: text("text"),
    from: text("from_address"),
    replyTo: text("reply_to").notNull().default("[]"),
    variables: text("variables").notNull().default("[]"),
    /**
     * The layout (a template of type `layout`, by id) this version is sent inside: its published
     * version at send time. Not a foreign key: removing a layout no published version uses leaves
     * drafts naming it, which then cannot be published.
     */
    layoutId: text("layout_id"),
    publishedAt: integer("published_at"),
    /** Counts a draft's edits: publishing names the revision it checked, so no edit slips past. */
    revision: integer("revision").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("template_versions_account_template").on(t.accountId, t.templateId, t.id),
    index("template_versions_account_layout").on(t.accountId, t.layoutId),
  ],
);
