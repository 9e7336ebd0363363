/** Every cron expression the Worker handles. wrangler.toml's [triggers] must list exactly these. */
export const CRON = {
  /** Sweeps of what is due (later: scheduled emails, outbox) and request-log retention. */
  everyMinute: "* * * * *",
} as const;

export const CRONS: readonly string[] = Object.values(CRON);
