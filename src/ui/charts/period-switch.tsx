/** The periods a page offers, in days up to today (UTC). */
export const PERIOD_DAYS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIOD_DAYS)[number];
export const DEFAULT_PERIOD_DAYS: PeriodDays = 30;

/** `?days=` as asked, when it is one of the choices; anything else (or nothing) is the default. */
export function periodDays(text: string | undefined): PeriodDays {
  return PERIOD_DAYS.find((days) => String(days) === text) ?? DEFAULT_PERIOD_DAYS;
}

/** Plain links, so the switch works without script; the period shown is marked current. */
export function PeriodSwitch(props: { path: string; days: PeriodDays }) {
  return (
    <nav class="period-switch" aria-label="Period">
      {PERIOD_DAYS.map((days) => (
        <a
          class="period"
          href={`${props.path}?days=${days}`}
          aria-current={days === props.days ? "page" : undefined}
        >
          {days} days
        </a>
      ))}
    </nav>
  );
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The `days` UTC days ending with today, as the reports' `from` (inclusive) and `to` (exclusive). */
export function periodBounds(days: PeriodDays, now: number) {
  const end = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
  return { from: isoDay(end - days * DAY_MS), to: isoDay(end) };
}
