/** Timestamps are stored as epoch milliseconds and shown as ISO 8601 UTC with milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : iso(ms);
}

const UNIT_SECONDS = { m: 60, h: 3600, d: 86400 } as const;

/** Parses a retention such as `5m`, `12h` or `90d` into seconds; null when malformed. */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,4})([mhd])$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}
