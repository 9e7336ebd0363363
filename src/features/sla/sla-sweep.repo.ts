import { and, asc, isNotNull, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { tickets } from "../../db/schema";
import type { TicketRow } from "../tickets/tickets.repo";
import type { slaColumns, TargetClock, TargetName } from "./sla-state";

/** The tickets of the shard (every workspace) with an SLA warning or breach due by `now`, soonest first. */
export const dueSlaTicketsQuery = (db: Db, now: number, limit: number) =>
  db
    .select()
    .from(tickets)
    .where(and(isNotNull(tickets.slaNextAt), lte(tickets.slaNextAt, now)))
    .orderBy(asc(tickets.slaNextAt))
    .limit(limit);

type Columns = ReturnType<typeof slaColumns>;

/**
 * Marks one target's warning (or breach) fired for its due time, and nothing else of the stored
 * SLA: only while that target still has that due time, unmet, and unmarked. The event written
 * right after it is guarded by `changes() > 0`, so of two sweeps one marks and fires, the other
 * neither; and the mark and the event commit together or not at all.
 */
export function markFired(
  ticket: TicketRow,
  name: TargetName,
  clock: TargetClock & { due_at: number },
  kind: "warning" | "breach",
  columns: Columns,
) {
  const path = (field: keyof TargetClock) => `$.${name}.${field}`;
  const flag = kind === "breach" ? path("breached_for") : path("warned_for");
  const breach = kind === "breach" ? sql`, ${path("breached_for")}, ${clock.due_at}` : sql``;
  return sql`UPDATE tickets
    SET sla = json_set(sla, ${path("warned_for")}, ${clock.due_at}${breach}),
        sla_breached = max(sla_breached, ${kind === "breach" ? 1 : 0}),
        sla_next_at = ${columns.slaNextAt}
    WHERE id = ${ticket.id} AND account_id = ${ticket.accountId}
      AND json_extract(sla, ${path("due_at")}) = ${clock.due_at}
      AND json_extract(sla, ${path("met_at")}) IS NULL
      AND json_extract(sla, ${flag}) IS NOT ${clock.due_at}`;
}

/** A ticket whose next moment passed with nothing to fire (a write moved it): the moment again, if unchanged since read. */
export const repairNextAt = (ticket: TicketRow, columns: Columns) =>
  sql`UPDATE tickets SET sla_next_at = ${columns.slaNextAt}
      WHERE id = ${ticket.id} AND account_id = ${ticket.accountId} AND sla IS ${ticket.sla}`;
