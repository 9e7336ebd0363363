import { iso, isoOrNull } from "../../lib/time";
import { missed, type SlaState, type TargetClock } from "./sla-state";

const MINUTE = 60_000;

/**
 * `remaining_minutes`: while running, the minutes until the due time (negative once passed);
 * while paused, the target's working minutes left (the clock resumes with them); null when met,
 * not started or without a target.
 */
function targetView(clock: TargetClock | null, now: number) {
  if (!clock) return { due_at: null, breached: false, met_at: null, remaining_minutes: null };
  const remaining =
    clock.met_at !== null || clock.target === null
      ? null
      : clock.due_at !== null
        ? Math.floor((clock.due_at - now) / MINUTE)
        : Math.floor((clock.target - clock.used) / MINUTE);
  return {
    due_at: clock.due_at === null ? null : iso(clock.due_at),
    breached: missed(clock, now),
    met_at: isoOrNull(clock.met_at),
    remaining_minutes: remaining,
  };
}

/** A ticket's `sla` as the API shows it at `now`; null when no policy covers it. */
export function slaView(column: string | null, now: number) {
  if (!column) return null;
  const state = JSON.parse(column) as SlaState;
  return {
    policy_id: state.policy_id,
    first_response: targetView(state.first_response, now),
    next_response: targetView(state.next_response, now),
    resolution: targetView(state.resolution, now),
    paused: state.paused,
  };
}
