import { is } from "drizzle-orm";
import { getTableConfig, SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../../db/schema";
import * as changelog from "../../db/schema/changelog";

/**
 * What a move copies, in order: one pass per table, parents before children, and every table a
 * trigger writes after the tables whose triggers write it (test/workers/workspace-move-tables.test.ts
 * checks that every table of the shard's migrations is here or named in NOT_MOVED).
 *
 * - `rows` says how a workspace's rows are found and chunked: by `account_id`, walked along the
 *   table's key by workspace and then the rowid (`walkColumnsOf`); `emails`, walked along their
 *   list index (account_seq, created_at, seq); or as children of a chunk of parents (each parent
 *   has few: an email's recipients, an event's deliveries).
 * - `renumbered`: an integer key the target gives anew (another workspace there may hold the
 *   number). Nothing a client sees is such a number (ids are text; lists are ordered by time and
 *   the number as a tie-break, kept because the copy inserts rows of one time in the order of
 *   their numbers: the walk's last key is the rowid).
 * - `computed`: columns the target fills from its own rows (a renumbered parent's new number,
 *   found by the parent's text key, which the source reads as `extras`).
 * - `derived`: written by triggers when the rows before it are copied: the target's rows for the
 *   workspace are deleted first, then the source's copied, so the counts are the source's.
 * - `refresh`: a table whose counters the triggers of a later table bumped: its rows are written
 *   again (an update in place) after that table.
 */
export type RowsOf =
  | { by: "account" }
  | { by: "emails" }
  | { by: "parent"; parent: "emails" | "events" | "campaigns" | "email_webhook_outbox"; fk: string };

export interface MovedTable {
  table: string;
  rows: RowsOf;
  renumbered?: string;
  computed?: Record<string, string>;
  /** Source expressions (`p` is the parent, `t` the row) read beside the row, named `__x0`... */
  extras?: string[];
  /** Columns left out of the checksum besides the renumbered and computed ones. */
  unchecked?: string[];
  kind?: "derived" | "refresh";
}

const ACCOUNT_SEQ = "(SELECT seq FROM accounts WHERE id = ?1)";
const emailSeqOfParent = "(SELECT seq FROM emails WHERE id = j.value ->> '$.__x0')";
const account = { by: "account" } as const;
const childOf = (parent: "emails" | "events" | "campaigns" | "email_webhook_outbox", fk: string): RowsOf => ({
  by: "parent",
  parent,
  fk,
});

export const MOVED_TABLES: MovedTable[] = [
  // The target's row is inert (`moving`) until the switch (move.service.ts `seal`); its seq, which
  // the email indexes use for the workspace, is the target's to give (a trigger does).
  { table: "accounts", rows: account, computed: { seq: "NULL", status: "'moving'" }, unchecked: ["status"] },
  { table: "users", rows: account },
  { table: "sessions", rows: account },
  { table: "login_tokens", rows: account },
  { table: "invitations", rows: account },
  { table: "invitation_mail_counts", rows: account },
  { table: "api_keys", rows: account },
  { table: "connections", rows: account },
  { table: "inboxes", rows: account },
  { table: "tags", rows: account },
  { table: "sla_policies", rows: account },
  { table: "sla_policy_inboxes", rows: account },
  { table: "saved_replies", rows: account },
  { table: "templates", rows: account },
  { table: "template_versions", rows: account },
  { table: "customers", rows: account },
  { table: "unsubscribes", rows: account },
  { table: "contact_groups", rows: account },
  { table: "contact_group_members", rows: account },
  // Copying a ticket's tag links bumps its version (the ETag) on the target: it comes out higher
  // than the source's, never lower or repeated, so a held ETag is at worst a 412 and a new GET.
  { table: "tickets", rows: account, unchecked: ["version"] },
  { table: "ticket_tags", rows: account },
  { table: "ticket_views", rows: account },
  { table: "messages", rows: account },
  { table: "message_attachments", rows: account },
  { table: "events", rows: account },
  { table: "webhook_deliveries", rows: childOf("events", "event_id") },
  { table: "changelog_entries", rows: account },
  { table: "smtp_logs", rows: account },
  { table: "suppressions", rows: account },
  { table: "bounces", rows: account, renumbered: "id" },
  { table: "campaigns", rows: account },
  { table: "campaign_recipients", rows: account },
  { table: "surveys", rows: account },
  { table: "survey_inboxes", rows: account },
  { table: "survey_requests", rows: account },
  { table: "survey_responses", rows: account },
  { table: "automations", rows: account },
  { table: "automation_enrollments", rows: account },
  { table: "enrollment_steps", rows: account },
  { table: "emails", rows: { by: "emails" }, renumbered: "seq", computed: { account_seq: ACCOUNT_SEQ } },
  ...(["email_recipients", "email_tags", "email_events"] as const).map(
    (table): MovedTable => ({
      table,
      rows: childOf("emails", "email_seq"),
      ...(table === "email_events" ? { renumbered: "id" } : {}),
      computed: {
        email_seq: emailSeqOfParent,
        ...(table === "email_events" ? {} : { account_seq: ACCOUNT_SEQ }),
      },
      extras: ["p.id"],
    }),
  ),
  { table: "email_daily", rows: account },
  { table: "email_archives", rows: account },
  { table: "email_archive_parts", rows: account },
  { table: "idempotency_keys", rows: account },
  { table: "dropped_mail", rows: account, renumbered: "id" },
  { table: "mail_reports", rows: account, renumbered: "id" },
  { table: "webhook_endpoints", rows: account },
  { table: "email_webhook_outbox", rows: account, renumbered: "id" },
  {
    table: "email_webhook_attempts",
    rows: childOf("email_webhook_outbox", "outbox_id"),
    renumbered: "id",
    computed: {
      outbox_id:
        "(SELECT id FROM email_webhook_outbox WHERE endpoint_id = j.value ->> '$.__x0' AND event_id = j.value ->> '$.__x1')",
    },
    extras: ["p.endpoint_id", "p.event_id"],
  },
  // Counters the triggers of the tables above wrote while they were copied.
  { table: "contact_groups", rows: account, kind: "refresh" },
  { table: "surveys", rows: account, kind: "refresh" },
  { table: "support_durations", rows: account, renumbered: "id", kind: "derived" },
  { table: "support_daily", rows: account, kind: "derived" },
  { table: "ticket_counts", rows: account, kind: "derived" },
  { table: "ticket_facet_counts", rows: account, kind: "derived" },
  { table: "events_counts", rows: account, kind: "derived" },
  { table: "campaign_recipient_counts", rows: childOf("campaigns", "campaign_id"), kind: "derived" },
  { table: "account_usage", rows: account, kind: "derived" },
];

/**
 * Shard tables that hold no workspace's rows: sign-in attempts are counted by email and address
 * hash across workspaces (a rate limit, pruned within the hour); a move's own cursor.
 */
export const NOT_MOVED = ["sign_in_attempts", "move_cursors"];

/**
 * The full-text index of tickets (migration 0044_ticket_search_by_account): an FTS5 table and its
 * shadow tables, not copied but rebuilt on the target by its triggers as the tickets, messages,
 * customers and tags are copied, and emptied on the source as they are deleted there; and the
 * workspaces' numbers in the shard's index (search_accounts), which the triggers give on the
 * first row and never take back (a workspace moving back finds its number again).
 */
export const SEARCH_INDEX_TABLES = [
  "search_accounts",
  "ticket_search",
  "ticket_search_config",
  "ticket_search_content",
  "ticket_search_data",
  "ticket_search_docsize",
  "ticket_search_idx",
];

const tablesByName = new Map<string, SQLiteTable>(
  ([...Object.values(schema), ...Object.values(changelog)] as unknown[])
    .filter((value): value is SQLiteTable => value instanceof SQLiteTable)
    .map((table) => [getTableConfig(table).name, table]),
);

/** A table's config by name, from the shard schema. */
function configOf(table: string) {
  const found = tablesByName.get(table);
  if (!found) throw new Error(`No table ${table} in the shard schema`);
  return getTableConfig(found);
}

/** The columns of a shard table, as its migrations made them. */
export function columnsOf(table: string): string[] {
  return configOf(table).columns.map((column) => column.name);
}

/** The columns a copy writes: generated ones the target computes itself. */
export function writableColumnsOf(table: string): string[] {
  return configOf(table)
    .columns.filter((column) => !column.generated)
    .map((column) => column.name);
}

/** The primary key columns of a shard table (for the upsert of a row copied again). */
export function primaryKeyOf(table: string): string[] {
  const config = configOf(table);
  const single = config.columns.filter((column) => column.primary).map((column) => column.name);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns.map((column) => column.name) ?? []);
}

/** Every table a move copies, once each (for checksums and deletion). */
export const movedTableNames = (): string[] => [...new Set(MOVED_TABLES.map((t) => t.table))];

/** The pass that checks a table (its first: a refresh pass copies the same rows again). */
export const checkedPasses = (): MovedTable[] =>
  MOVED_TABLES.filter((pass, i) => MOVED_TABLES.findIndex((p) => p.table === pass.table) === i);

/**
 * The columns after `account_id` of the shortest key a workspace's rows can be walked along in
 * its own order: a primary key, unique constraint or whole-table index (not a partial one) that
 * leads with `account_id` and whose other columns are never NULL (a NULL has no place in a row
 * value cursor). Every shard table has a rowid, which SQLite keeps last in each index entry, so
 * the walk orders by these columns and then the rowid and reads its pages straight off the index:
 * no sort of the workspace's remaining rows for each page. Null when the table has no such key:
 * its walk goes by rowid alone (workspace-move-pages.test.ts names those tables and reads every
 * walk's plan).
 */
export function walkColumnsOf(table: string): string[] | null {
  const config = configOf(table);
  const byName = new Map(config.columns.map((column) => [column.name, column]));
  const keys: Array<ReadonlyArray<unknown>> = [
    config.columns.filter((column) => column.primary),
    ...config.primaryKeys.map((key) => key.columns),
    ...config.uniqueConstraints.map((key) => key.columns),
    ...config.indexes.filter((index) => !index.config.where).map((index) => index.config.columns),
  ];
  const walks = keys.flatMap((key) => {
    const columns = key.map((column) => (is(column, SQLiteColumn) ? column.name : null));
    if (columns[0] !== "account_id") return [];
    const rest = columns.slice(1);
    return rest.every((name) => name !== null && byName.get(name)?.notNull) ? [rest as string[]] : [];
  });
  return walks.sort((a, b) => a.length - b.length)[0] ?? null;
}
