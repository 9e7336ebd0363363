import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

export const CHANGELOG_CATEGORIES = ["new", "improved", "fixed", "deprecated"] as const;
export type ChangelogCategory = (typeof CHANGELOG_CATEGORIES)[number];

/** product.md: draft → scheduled → published (the moves are in changelog.states.ts). */
export const CHANGELOG_STATUSES = ["draft", "scheduled", "published"] as const;
export type ChangelogStatus = (typeof CHANGELOG_STATUSES)[number];

/**
 * One entry of a workspace's public changelog. `body_html` is rendered from `body_markdown` and
 * sanitized when written, so pages and the feed only copy it. `published_at` is null for drafts,
 * in the future for scheduled entries, and the publication time once published.
 */
export const changelogEntries = sqliteTable(
  "changelog_entries",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    bodyMarkdown: text("body_markdown").notNull(),
    bodyHtml: text("body_html").notNull(),
    /**
     * Null when `body_html` is small enough for the public page and feed (see changelog.summary.ts);
     * otherwise the plain-text opening they show instead, with a link to the entry's own page.
     * Written with the body, so a listing never reads a long body.
     */
    summaryText: text("summary_text"),
    category: text("category", { enum: CHANGELOG_CATEGORIES }).notNull(),
    status: text("status", { enum: CHANGELOG_STATUSES }).notNull().default("draft"),
    publishedAt: integer("published_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // GET /v1/changelog: the workspace's entries, newest written first.
    index("changelog_account_created").on(t.accountId, t.createdAt, t.id),
    // The public page and feed: a workspace's published entries, newest published first.
    index("changelog_account_status_published").on(t.accountId, t.status, t.publishedAt, t.id),
    // The minute cron: scheduled entries that are due, across workspaces.
    index("changelog_status_published").on(t.status, t.publishedAt),
  ],
);
