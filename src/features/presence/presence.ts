/** How often an open ticket page says it is still there. */
export const HEARTBEAT_MS = 5_000;
/** A person is gone after two missed heartbeats (and a little slack for a slow request). */
export const PRESENCE_TTL_MS = 2 * HEARTBEAT_MS + 2_000;

export const PRESENCE_STATES = ["viewing", "replying", "gone"] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];

export interface Heartbeat {
  userId: string;
  /** What the others see: the person's name, or their email without a name. */
  name: string;
  /** `gone`: the page closed; the person leaves at once instead of expiring. */
  state: PresenceState;
}

export interface Present {
  name: string;
  state: Exclude<PresenceState, "gone">;
}
