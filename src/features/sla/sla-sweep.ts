import { sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { iso } from "../../lib/time";
import { announceEvents } from "../../webhooks/announce";
import { type RecordedEvent, recordEvent } from "../../webhooks/outbox";
import { ticketData } from "../../webhooks/payloads";
import { findInbox } from "../inboxes/inboxes.repo";
import type { TicketRow } from "../tickets/tickets.repo";
import {
  type SlaState,
  slaColumns,
  TARGET_NAMES,
  type TargetClock,
  type TargetName,
  warningAt,
} from "./sla-state";
import { dueSlaTicketsQuery, markFired, repairNextAt } from "./sla-sweep.repo";

/** Tickets read per page; a minute's sweep takes at most MAX_PAGES pages, the rest the next minute. */
const PAGE = 100;
const MAX_PAGES = 5;

type SweepEnv = Pick<Env, "PUBLIC_BASE_URL" | "WEBHOOK_QUEUE">;

/** What is due for a target at `now`: a breach (its warning then never fires), a warning, or nothing. */
function dueKind(state: SlaState, name: TargetName, now: number): "warning" | "breach" | null {
  const clock = state[name];
  if (!clock || clock.due_at === null || clock.met_at !== null) return null;
  if (now >= clock.due_at) return clock.breached_for === clock.due_at ? null : "breach";
  return now >= warningAt(state, clock.due_at) && clock.warned_for !== clock.due_at ? "warning" : null;
}

/** Fires a ticket's due SLA events, one batch each (mark + event); answers the events written. */
async function fireFor(db: Db, env: SweepEnv, ticket: TicketRow, now: number): Promise<RecordedEvent[]> {
  let state = JSON.parse(ticket.sla ?? "null") as SlaState | null;
  if (!state) return [];
  const inbox = await findInbox(db, ticket.accountId, ticket.inboxId);
  const fired: RecordedEvent[] = [];
  let any = false;
  for (const name of TARGET_NAMES) {
    const kind = dueKind(state, name, now);
    const clock: TargetClock | null = state[name];
    if (!kind || !clock || clock.due_at === null) continue;
    any = true;
    const due: number = clock.due_at;
    state = {
      ...state,
      [name]: { ...clock, warned_for: due, ...(kind === "breach" ? { breached_for: due } : {}) },
    };
    // The next moment as if this mark holds: a sweep dying after it leaves the rest due.
    const mark = markFired(ticket, name, { ...clock, due_at: due }, kind, slaColumns(state, now));
    if (!inbox) {
      await runBatch(db, [mark]);
      continue;
    }
    const event = recordEvent(
      {
        accountId: ticket.accountId,
        inbox,
        name: kind === "breach" ? "ticket.sla_breached" : "ticket.sla_warning",
        data: {
          ticket: ticketData(ticket, env.PUBLIC_BASE_URL),
          sla: { policy_id: state.policy_id, target: name, due_at: iso(due) },
        },
        guard: { table: "tickets", id: ticket.id, when: sql`changes() > 0` },
      },
      now,
    );
    const results = await runBatch(db, [mark, ...event.statements]);
    if (results[0]?.meta.changes) fired.push(event);
  }
  if (!any) await runBatch(db, [repairNextAt(ticket, slaColumns(state, now))]);
  return fired;
}

/**
 * The minute's SLA sweep of one shard: every ticket whose next SLA moment passed, found on the
 * partial index `tickets_sla_next`. Each warning and breach fires exactly once per due time,
 * within a minute of it (docs/sla.md).
 */
export async function sweepSla(db: Db, env: SweepEnv, now: number): Promise<number> {
  let count = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const due = await dueSlaTicketsQuery(db, now, PAGE);
    for (const ticket of due) {
      const events = await fireFor(db, env, ticket, now);
      count += events.length;
      await announceEvents(env.WEBHOOK_QUEUE, events);
    }
    if (due.length < PAGE) break;
  }
  return count;
}
