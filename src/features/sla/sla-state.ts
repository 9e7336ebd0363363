import type { TICKET_PRIORITIES, TICKET_STATUSES } from "../../db/schema";
import { addWorkingTime, workingTimeBetween } from "./business-time";
import type { PolicyTerms } from "./sla-policies.service";

export const TARGET_NAMES = ["first_response", "next_response", "resolution"] as const;
export type TargetName = (typeof TARGET_NAMES)[number];
type Status = (typeof TICKET_STATUSES)[number];
type Priority = (typeof TICKET_PRIORITIES)[number];

const MINUTE = 60_000;

/**
 * One target's clock. It runs from `since` with `used` ms of working time already spent before
 * (a pause keeps what was used and resumes from the moment it ends); `due_at` is where it runs
 * out (null while paused or without a target). `warned_for`/`breached_for` are the due time the
 * sweep fired each event for: each fires once per due time.
 */
export interface TargetClock {
  started_at: number;
  /** The target (ms of working time) for the ticket's priority, as of the last write. */
  target: number | null;
  since: number | null;
  used: number;
  due_at: number | null;
  met_at: number | null;
  /** Set when met: whether it was met past its target. */
  met_late: boolean;
  warned_for: number | null;
  breached_for: number | null;
}

/** A ticket's stored SLA: its policy and a clock per target (null until that target starts). */
export interface SlaState {
  policy_id: string;
  /** Minutes before a due time that the warning fires (the policy's, as of the last write). */
  warning_before: number;
  paused: boolean;
  first_response: TargetClock | null;
  next_response: TargetClock | null;
  resolution: TargetClock | null;
}

/** What moved the ticket, for `advance`. */
export interface SlaMove {
  status: Status;
  priority: Priority;
  /** A published agent reply or customer message (automatic answers are neither). */
  message?: "reply" | "customer" | undefined;
}

/** Statuses that stop every clock besides the policy's pause statuses. */
const STOPPED: readonly Status[] = ["resolved", "closed", "spam"];

const targetMs = (terms: PolicyTerms, priority: Priority, name: TargetName) => {
  const minutes = terms.targets[priority][name];
  return minutes === null ? null : minutes * MINUTE;
};

/** Working time spent on a clock up to `now`. */
const spent = (clock: TargetClock, terms: PolicyTerms, now: number) =>
  clock.used + (clock.since === null ? 0 : workingTimeBetween(clock.since, now, terms.hours));

function withDue(clock: TargetClock, target: number | null, terms: PolicyTerms): TargetClock {
  if (clock.met_at !== null) return clock;
  const due =
    clock.since === null || target === null
      ? null
      : addWorkingTime(clock.since, target - clock.used, terms.hours);
  return { ...clock, target, due_at: due };
}

function started(now: number, paused: boolean): TargetClock {
  const since = paused ? null : now;
  return {
    started_at: now,
    target: null,
    since,
    used: 0,
    due_at: null,
    met_at: null,
    met_late: false,
    warned_for: null,
    breached_for: null,
  };
}

function pause(clock: TargetClock, terms: PolicyTerms, now: number): TargetClock {
  if (clock.since === null || clock.met_at !== null) return clock;
  return { ...clock, used: spent(clock, terms, now), since: null, due_at: null };
}

const resume = (clock: TargetClock, now: number): TargetClock =>
  clock.since !== null || clock.met_at !== null ? clock : { ...clock, since: now };

function meet(clock: TargetClock, target: number | null, terms: PolicyTerms, now: number): TargetClock {
  if (clock.met_at !== null) return clock;
  const late = target !== null && spent(clock, terms, now) > target;
  return { ...clock, target, used: spent(clock, terms, now), since: null, met_at: now, met_late: late };
}

const isPaused = (status: Status, terms: PolicyTerms) =>
  STOPPED.includes(status) || terms.pauseStatuses.includes(status);

/** A new ticket's SLA: first response and resolution start now (first response met if an agent opened it). */
export function openedState(policyId: string, terms: PolicyTerms, move: SlaMove, now: number): SlaState {
  const paused = isPaused(move.status, terms);
  const fresh: SlaState = {
    policy_id: policyId,
    warning_before: terms.warningBefore,
    paused,
    first_response: started(now, paused),
    next_response: null,
    resolution: started(now, paused),
  };
  return advance(fresh, terms, move, now);
}

/**
 * The SLA after a write: a reply meets the response targets, a customer message (after the first
 * response) starts the next one, a status pauses or resumes the clocks (resolved or closed meets
 * resolution), and every running clock's due time is worked out again for the priority now.
 */
export function advance(state: SlaState, terms: PolicyTerms, move: SlaMove, now: number): SlaState {
  const target = (name: TargetName) => targetMs(terms, move.priority, name);
  let next = { ...state, warning_before: terms.warningBefore };
  if (move.message === "reply") {
    for (const name of ["first_response", "next_response"] as const) {
      const clock = next[name];
      if (clock) next = { ...next, [name]: meet(clock, target(name), terms, now) };
    }
  }
  if (move.message === "customer" && next.first_response?.met_at != null) {
    const current = next.next_response;
    if (!current || current.met_at !== null) next = { ...next, next_response: started(now, next.paused) };
  }
  if ((move.status === "resolved" || move.status === "closed") && next.resolution)
    next = { ...next, resolution: meet(next.resolution, target("resolution"), terms, now) };
  const paused = isPaused(move.status, terms);
  for (const name of TARGET_NAMES) {
    const clock = next[name];
    if (!clock) continue;
    const moved = paused ? pause(clock, terms, now) : resume(clock, now);
    next = { ...next, [name]: withDue(moved, target(name), terms) };
  }
  return { ...next, paused };
}

/** Whether a clock missed its target as of `now`. */
export function missed(clock: TargetClock | null, now: number): boolean {
  if (!clock) return false;
  if (clock.met_at !== null) return clock.met_late;
  if (clock.due_at !== null) return now >= clock.due_at;
  // Paused: it missed if it used up its target before the pause.
  return clock.target !== null && clock.used >= clock.target;
}

/** The moment a clock's warning is due (calendar minutes before its due time). */
export const warningAt = (state: SlaState, due: number) => due - state.warning_before * MINUTE;

/** What the sweep still has to fire for a clock, and when: null when nothing. */
export function pendingOf(
  state: SlaState,
  clock: TargetClock | null,
): { at: number; kind: "warning" | "breach" } | null {
  if (!clock || clock.due_at === null || clock.met_at !== null) return null;
  if (clock.breached_for === clock.due_at) return null;
  if (clock.warned_for !== clock.due_at) return { at: warningAt(state, clock.due_at), kind: "warning" };
  return { at: clock.due_at, kind: "breach" };
}

/** The columns the lists and the sweep read, for a state as of `now`. */
export function slaColumns(state: SlaState | null, now: number) {
  if (!state) return { sla: null, slaDueAt: null, slaBreached: 0, slaNextAt: null };
  const clocks = TARGET_NAMES.map((name) => state[name]);
  const running = clocks.flatMap((c) => (c && c.met_at === null && c.due_at !== null ? [c.due_at] : []));
  const moments = clocks.flatMap((c) => {
    const pending = pendingOf(state, c);
    return pending ? [pending.at] : [];
  });
  return {
    sla: JSON.stringify(state),
    slaDueAt: running.length > 0 ? Math.min(...running) : null,
    slaBreached: clocks.some((c) => missed(c, now)) ? 1 : 0,
    slaNextAt: moments.length > 0 ? Math.min(...moments) : null,
  };
}
