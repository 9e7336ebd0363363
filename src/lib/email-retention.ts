import { sql } from "drizzle-orm";
import { PLAN_NAMES, type PlanName } from "./plans";

/**
 * How many days of email history each plan keeps at most (product.md): a workspace may keep less
 * (`email_retention`, 1 day at least), never more. Past it an email's rows and R2 objects are
 * deleted, its day archived first (jobs/archive-emails.ts).
 */
export const EMAIL_RETENTION_MAX_DAYS: Record<PlanName, number> = {
  free: 30,
  starter: 45,
  pro: 90,
  enterprise: 400,
};

/** How long a day's archive is kept, whatever the plan: two years (product.md). */
export const ARCHIVE_RETENTION_DAYS = 730;

export const DAY_MS = 86_400_000;

/** The retention in force: the workspace's own, capped by its plan (which may have gone down). */
export function emailRetentionDays(plan: PlanName, chosen: number | null): number {
  const max = EMAIL_RETENTION_MAX_DAYS[plan];
  return chosen === null ? max : Math.min(chosen, max);
}

/** `emailRetentionDays` in SQL, for the accounts row `a`, so a run over many workspaces reads it per row. */
export const EMAIL_RETENTION_DAYS_SQL = sql.raw(
  `min(coalesce(a.email_retention_days, 1000000), CASE a.plan ${PLAN_NAMES.map(
    (plan) => `WHEN '${plan}' THEN ${EMAIL_RETENTION_MAX_DAYS[plan]}`,
  ).join(" ")} END)`,
);

/**
 * `keptFrom` in SQL for the accounts row `a`. The day is written into the statement: a bound
 * JavaScript number reaches SQLite as a real, and dividing by it would give a fraction of a day.
 */
export const keptFromSql = (now: number) =>
  sql`(CAST(${now} AS INTEGER) / 86400000 - ${EMAIL_RETENTION_DAYS_SQL}) * 86400000`;

/**
 * The first instant whose emails are kept at `now`: emails of whole UTC days before it are due
 * for archiving. An email is kept its retention at least and a day more at most, so each day is
 * archived whole.
 */
export function keptFrom(now: number, retentionDays: number): number {
  return (Math.floor(now / DAY_MS) - retentionDays) * DAY_MS;
}

/** A day (days since the epoch, UTC) as the API writes it: 2026-11-29. */
export const dayLabel = (day: number): string => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The day a `YYYY-MM-DD` label names, or null when it names none. */
export function dayOfLabel(label: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(label)) return null;
  const time = Date.parse(`${label}T00:00:00Z`);
  if (Number.isNaN(time) || dayLabel(time / DAY_MS) !== label) return null;
  return time / DAY_MS;
}

/**
 * Where a part of a day's archive is kept in R2. The part's token (chosen when the part was
 * claimed) is in the key, so a run that lost its claim can never overwrite another run's part.
 */
export const archivePartKey = (accountId: string, day: number, part: number, token: string): string =>
  `email-archives/${accountId}/${dayLabel(day)}/${String(part).padStart(6, "0")}-${token}.ndjson.gz`;
