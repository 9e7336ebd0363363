/** Plan limits from product.md. `null` means unlimited. */
export const PLAN_NAMES = ["free", "starter", "pro", "enterprise"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const QUOTA_NAMES = [
  "requests_per_minute",
  "emails_per_month",
  "emails_per_day",
  "emails_per_hour",
  "recipients_per_email",
  "storage_bytes",
  "team_members",
] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];
export type QuotaLimits = Record<QuotaName, number | null>;

const GB = 1024 ** 3;

export const PLANS: Record<PlanName, QuotaLimits> = {
  free: {
    requests_per_minute: 300,
    emails_per_month: 3_000,
    emails_per_day: 100,
    emails_per_hour: 50,
    recipients_per_email: 50,
    storage_bytes: 1 * GB,
    team_members: null,
  },
  starter: {
    requests_per_minute: 1_200,
    emails_per_month: 50_000,
    emails_per_day: 5_000,
    emails_per_hour: 1_000,
    recipients_per_email: 50,
    storage_bytes: 10 * GB,
    team_members: 5,
  },
  pro: {
    requests_per_minute: 3_000,
    emails_per_month: 250_000,
    emails_per_day: 25_000,
    emails_per_hour: 5_000,
    recipients_per_email: 100,
    storage_bytes: 50 * GB,
    team_members: 25,
  },
  enterprise: {
    requests_per_minute: 6_000,
    emails_per_month: null,
    emails_per_day: null,
    emails_per_hour: null,
    recipients_per_email: 1_000,
    storage_bytes: 500 * GB,
    team_members: null,
  },
};

export type QuotaOverrides = Partial<QuotaLimits>;

/** The limits in force for an account: its plan's, with any per-account override on top. */
export function limitsFor(plan: PlanName, overrides: QuotaOverrides): QuotaLimits {
  return { ...PLANS[plan], ...overrides };
}

/** The cheapest plan whose limit for `quota` admits `needed`; enterprise when none does. */
export function recommendedPlan(quota: QuotaName, needed: number): PlanName {
  for (const name of PLAN_NAMES) {
    const limit = PLANS[name][quota];
    if (limit === null || limit >= needed) return name;
  }
  return "enterprise";
}

export function percentage(current: number, limit: number | null): number | null {
  if (limit === null) return null;
  if (limit === 0) return current > 0 ? 100 : 0;
  return Math.round((current / limit) * 10_000) / 100;
}

/** Reads the stored overrides JSON, keeping only known quotas with numeric or null values. */
export function parseQuotaOverrides(json: string): QuotaOverrides {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  const overrides: QuotaOverrides = {};
  if (parsed && typeof parsed === "object") {
    for (const name of QUOTA_NAMES) {
      const value = (parsed as Record<string, unknown>)[name];
      if (value === null || (typeof value === "number" && Number.isFinite(value) && value >= 0)) {
        overrides[name] = value;
      }
    }
  }
  return overrides;
}
