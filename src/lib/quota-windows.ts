/**
 * The counting windows of accumulating quotas. Email quotas restart each UTC month, day and hour;
 * storage and team members are running totals (window start 0, never reset). Writers and the
 * usage endpoint both use these, so they always agree on which counter row is current.
 */
export const COUNTED_QUOTAS = [
  "emails_per_month",
  "emails_per_day",
  "emails_per_hour",
  "storage_bytes",
  "team_members",
] as const;
export type CountedQuota = (typeof COUNTED_QUOTAS)[number];

export interface QuotaWindow {
  start: number;
  resetsAt: number | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export function quotaWindow(quota: CountedQuota, now: number): QuotaWindow {
  switch (quota) {
    case "emails_per_month": {
      const d = new Date(now);
      return {
        start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
        resetsAt: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
      };
    }
    case "emails_per_day": {
      const start = Math.floor(now / DAY_MS) * DAY_MS;
      return { start, resetsAt: start + DAY_MS };
    }
    case "emails_per_hour": {
      const start = Math.floor(now / HOUR_MS) * HOUR_MS;
      return { start, resetsAt: start + HOUR_MS };
    }
    case "storage_bytes":
    case "team_members":
      return { start: 0, resetsAt: null };
  }
}
