import { type SQL, sql } from "drizzle-orm";
import type { TemplateRow, VersionRow } from "./templates.repo";
import { byIdOrAlias } from "./templates.repo";
import type { SendTemplateInput } from "./templates.schemas";

/**
 * What a send through a template read last time, kept in the isolate so the next send of it
 * needs no read before its accepting batch: a published version (and its layout's) never changes,
 * so only *which* version a reference resolves to can. Each use therefore carries `guardSql`,
 * which the accepting batch checks in the same transaction as its writes (emails.accept-once.ts):
 * when the template was republished, removed, its alias moved, or its layout republished, the
 * batch writes nothing and the send reads afresh. An isolate holds at most a few megabytes of it.
 */

export type Usable = { template: TemplateRow; version: VersionRow; layout: VersionRow | null };

const MAX_ENTRIES = 200;
const MAX_BYTES = 4_000_000;
/** A version larger than this is read each time: one entry must not push out all the others. */
const MAX_ENTRY_BYTES = 500_000;

const entries = new Map<string, { found: Usable; bytes: number }>();
let totalBytes = 0;

export const cacheKey = (accountId: string, ref: SendTemplateInput) =>
  `${accountId}\u0000${ref.id}\u0000${ref.version_id ?? ""}`;

const sizeOf = (v: VersionRow | null) =>
  v ? v.html.length + (v.text?.length ?? 0) + (v.subject?.length ?? 0) + v.variables.length : 0;

export function cached(key: string): Usable | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  // Most recently used last: eviction takes the first.
  entries.delete(key);
  entries.set(key, entry);
  return entry.found;
}

export function remember(key: string, found: Usable) {
  const bytes = sizeOf(found.version) + sizeOf(found.layout);
  forget(key);
  if (bytes > MAX_ENTRY_BYTES) return;
  entries.set(key, { found, bytes });
  totalBytes += bytes;
  for (const [oldest, entry] of entries) {
    if (entries.size <= MAX_ENTRIES && totalBytes <= MAX_BYTES) break;
    entries.delete(oldest);
    totalBytes -= entry.bytes;
  }
}

export function forget(key: string) {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  totalBytes -= entry.bytes;
}

/**
 * SQL true while `ref` still resolves to what was cached: the reference (id or alias) names the
 * same template, whose published version is the cached one (a version named by id is immutable
 * and goes only with its template), and the layout's published version is still the cached one.
 */
export function guardSql(accountId: string, ref: SendTemplateInput, found: Usable): SQL {
  const version = ref.version_id ? sql`` : sql`AND published_version_id = ${found.version.id}`;
  const layout = found.layout
    ? sql`AND EXISTS (SELECT 1 FROM templates WHERE account_id = ${accountId}
        AND id = ${found.layout.templateId} AND published_version_id = ${found.layout.id})`
    : sql``;
  return sql`(EXISTS (SELECT 1 FROM templates WHERE ${byIdOrAlias(accountId, ref.id)}
    AND id = ${found.template.id} ${version}) ${layout})`;
}
