export const DAY_MS = 86_400_000;
/** The table's span: today (UTC) and the 29 days before it. */
export const RATE_DAYS = 30;

/** What one UTC day (or the 30-day total) counts. */
export interface DayCounts {
  sent: number;
  hard: number;
  soft: number;
  complained: number;
}

export interface DayRow extends DayCounts {
  /** The day's number since the epoch (UTC), as `created_at / DAY_MS` gives it. */
  day: number;
}

/** When the table's first day starts: midnight UTC, 29 days before today. */
export const firstDayStart = (now: number) => (Math.floor(now / DAY_MS) - (RATE_DAYS - 1)) * DAY_MS;

const ZERO: DayCounts = { sent: 0, hard: 0, soft: 0, complained: 0 };

/** Every day of the span, newest first, with zeros for a day nothing was sent; and their total. */
export function dailyTable(counted: DayRow[], now: number) {
  const today = Math.floor(now / DAY_MS);
  const byDay = new Map(counted.map((row) => [row.day, row]));
  const days = Array.from({ length: RATE_DAYS }, (_, i): DayRow => {
    const day = today - i;
    const row = byDay.get(day);
    return row ? { ...row, day } : { ...ZERO, day };
  });
  const total = days.reduce<DayCounts>(
    (sum, d) => ({
      sent: sum.sent + d.sent,
      hard: sum.hard + d.hard,
      soft: sum.soft + d.soft,
      complained: sum.complained + d.complained,
    }),
    ZERO,
  );
  return { days, total };
}

/** A share of the recipients sent, as a percentage with one decimal; "—" when none were sent. */
export function rate(part: number, sent: number): string {
  return sent === 0 ? "—" : `${((part / sent) * 100).toFixed(1)}%`;
}
