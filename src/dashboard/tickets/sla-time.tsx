import type { toTicket } from "../../features/tickets/tickets.dto";

type Sla = NonNullable<ReturnType<typeof toTicket>["sla"]>;
type Target = Sla["first_response"];
type TargetName = "first_response" | "next_response" | "resolution";

const TARGET_LABELS: Record<TargetName, string> = {
  first_response: "First response",
  next_response: "Next response",
  resolution: "Resolution",
};
const TARGETS = Object.keys(TARGET_LABELS) as TargetName[];

/** `1 d 2 h`, `2 h 5 m`, `12 m`: the two largest units, enough to act on. */
export function duration(minutes: number): string {
  const m = Math.abs(Math.round(minutes));
  const days = Math.floor(m / 1440);
  const hours = Math.floor((m % 1440) / 60);
  const rest = m % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} m` : `${hours} h`;
  return `${rest} m`;
}

/** What one target says: met, running (due in / overdue by), paused with what is left, or nothing. */
function targetState(
  target: Target,
  paused: boolean,
): { text: string; tone: "good" | "bad" | "warn" | "" } | null {
  if (target.met_at)
    return { text: target.breached ? "met late" : "met", tone: target.breached ? "bad" : "good" };
  if (target.remaining_minutes === null) return null;
  if (paused || target.due_at === null)
    return { text: `paused, ${duration(target.remaining_minutes)} left`, tone: "" };
  if (target.remaining_minutes < 0)
    return { text: `overdue by ${duration(target.remaining_minutes)}`, tone: "bad" };
  return {
    text: `due in ${duration(target.remaining_minutes)}`,
    tone: target.remaining_minutes <= 30 ? "warn" : "",
  };
}

/** The ticket page's SLA: each target of the policy with its state. */
export function SlaTargets(props: { sla: Sla | null }) {
  const { sla } = props;
  if (!sla) return <span class="muted">No policy</span>;
  const lines = TARGETS.flatMap((name) => {
    const state = targetState(sla[name], sla.paused);
    return state ? [{ name, ...state }] : [];
  });
  if (lines.length === 0) return <span class="muted">Nothing running</span>;
  return (
    <ul class="sla-targets">
      {lines.map((line) => (
        <li>
          {TARGET_LABELS[line.name]}: <span class={line.tone ? `badge ${line.tone}` : ""}>{line.text}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A list row's SLA: the running target due soonest (the one the agent must act on), else a paused
 * one, else nothing. Overdue and nearly due ones stand out.
 */
export function SlaTimeLeft(props: { sla: Sla | null }) {
  const { sla } = props;
  if (!sla) return <span class="muted">—</span>;
  const open = TARGETS.map((name) => ({ name, target: sla[name] })).filter(
    ({ target }) => !target.met_at && target.remaining_minutes !== null,
  );
  const running = open
    .filter(({ target }) => !sla.paused && target.due_at !== null)
    .sort((a, b) => (a.target.remaining_minutes ?? 0) - (b.target.remaining_minutes ?? 0))[0];
  const shown = running ?? open[0];
  if (!shown) return <span class="muted">—</span>;
  const state = targetState(shown.target, sla.paused);
  if (!state) return <span class="muted">—</span>;
  return (
    <span class={state.tone ? `badge ${state.tone}` : ""} title={TARGET_LABELS[shown.name]}>
      {`${TARGET_LABELS[shown.name]} ${state.text}`}
    </span>
  );
}
