import { getTableColumns, sql } from "drizzle-orm";
import { emails } from "../../db/schema";
import { iso } from "../../lib/time";
import { tagsJsonOf } from "../emails/email-tags";
import { toEmailSummary } from "../emails/emails.dto";
import { messageKey } from "../emails/message-key";

/**
 * What an archive keeps of an email: its row as the API shows it, its tags, and, as JSON, its
 * recipients' outcomes and its events, read beside it in one query. Never its body, headers or
 * attachment bytes: an archive is a record of what happened, not a copy of the mail.
 */
const { html: _html, text: _text, headers: _headers, ...recordColumns } = getTableColumns(emails);

export const archivedEmailColumns = {
  // Never the bodies or headers: the line leaves them out, and a part of large emails would
  // otherwise read tens of megabytes into the isolate for nothing.
  ...recordColumns,
  tags: tagsJsonOf(emails.seq).as("tags"),
  recipients: sql<string>`(SELECT json_group_array(json_object('address', address, 'status', state,
    'response', response, 'attempts', attempts)) FROM email_recipients WHERE email_seq = ${emails.seq})`.as(
    "recipients",
  ),
  events: sql<string>`(SELECT json_group_array(json_array(type, detail, created_at)) FROM (
    SELECT type, detail, created_at FROM email_events WHERE email_seq = ${emails.seq} ORDER BY created_at, id))`.as(
    "events",
  ),
};

/** Its body and headers are not read (null here). */
export type ArchivedEmail = typeof emails.$inferSelect & { tags: string; recipients: string; events: string };

const emailColumns = Object.entries(recordColumns);

/** An email read by a raw batch (rows keyed by column name) as drizzle would give it. */
export function archivedEmailOf(raw: Record<string, unknown>): ArchivedEmail {
  const row: Record<string, unknown> = {
    tags: raw.tags,
    recipients: raw.recipients,
    events: raw.events,
    html: null,
    text: null,
    headers: "{}",
  };
  for (const [key, column] of emailColumns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as ArchivedEmail;
}

/** One email's line: the fields GET /v1/emails/{id} shows, less html, text and headers, plus its outcome. */
export function archiveLine(row: ArchivedEmail): string {
  const events = JSON.parse(row.events) as Array<[string, string | null, number]>;
  return JSON.stringify({
    ...toEmailSummary(row),
    source: row.source,
    campaign_id: row.campaignId,
    recipients: JSON.parse(row.recipients),
    events: events.map(([type, detail, at]) => ({ type, detail, created_at: iso(at) })),
  });
}

/** The part's object: its lines, gzip-compressed (one gzip member; a day's parts concatenate). */
export async function gzipLines(lines: string[]): Promise<Uint8Array> {
  const text = new Blob([`${lines.join("\n")}\n`]).stream();
  return new Uint8Array(await new Response(text.pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}

/**
 * The R2 objects an email owns: its built message and attachments stored under its own prefix.
 * An attachment kept elsewhere (a ticket message's) belongs to what keeps it and stays.
 */
export function objectsOf(row: Pick<ArchivedEmail, "id" | "attachments">): string[] {
  const own = `emails/${row.id}/`;
  const attachments = (JSON.parse(row.attachments) as Array<{ key: string }>).map((a) => a.key);
  return [messageKey(row.id), ...attachments.filter((key) => key.startsWith(own))];
}
