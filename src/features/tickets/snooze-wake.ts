import { and, asc, eq, isNotNull, lte, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch, type Statement } from "../../db/client";
import { customers, inboxes, tickets } from "../../db/schema";
import { announceEvents } from "../../webhooks/announce";
import { type RecordedEvent, recordEvent } from "../../webhooks/outbox";
import { customerData, ticketData } from "../../webhooks/payloads";
import { keepsSnooze } from "./snooze";
import type { TicketRow } from "./tickets.repo";

/** Snoozes woken per minute and shard; the rest wait for the next run, oldest first. */
export const MAX_WAKES_PER_RUN = 500;
/** Tickets woken per transaction: three statements each. */
const WAKES_PER_BATCH = 50;

/** The due snoozes of the shard, oldest first, read through the partial index tickets_snoozed_until. */
export const dueSnoozesQuery = (db: Db, now: number, limit: number) =>
  db
    .select({ ticket: tickets, inbox: inboxes, customer: customers })
    .from(tickets)
    .innerJoin(inboxes, eq(inboxes.id, tickets.inboxId))
    .innerJoin(customers, eq(customers.id, tickets.customerId))
    .where(and(isNotNull(tickets.snoozedUntil), lte(tickets.snoozedUntil, now)))
    .orderBy(asc(tickets.snoozedUntil))
    .limit(limit);

type Due = Awaited<ReturnType<typeof dueSnoozesQuery>>[number];

/**
 * The snooze of `ticket` ends only if it is still the one read: a snooze a user moved or ended
 * meanwhile, or one a concurrent sweep already woke, changes nothing.
 */
const stillSnoozed = (ticket: TicketRow): SQL =>
  and(
    eq(tickets.accountId, ticket.accountId),
    eq(tickets.id, ticket.id),
    eq(tickets.snoozedUntil, ticket.snoozedUntil ?? -1),
  ) as SQL;

/** A wake: back to `open`, the snooze cleared, and `ticket.updated` only when this UPDATE did it. */
function wakeStatements(db: Db, { ticket, inbox, customer }: Due, baseUrl: string, now: number) {
  const woken: TicketRow = { ...ticket, status: "open", closedAt: null, snoozedUntil: null, updatedAt: now };
  const update = db
    .update(tickets)
    .set({ status: "open", closedAt: null, snoozedUntil: null, updatedAt: now })
    .where(stillSnoozed(ticket));
  const event = recordEvent(
    {
      accountId: ticket.accountId,
      inbox,
      name: "ticket.updated",
      data: { ticket: ticketData(woken, baseUrl), customer: customerData(customer) },
      guard: { table: "tickets", id: ticket.id, when: sql`changes() > 0` },
    },
    now,
  );
  return { statements: [update, ...event.statements], event };
}

const reopens = (ticket: TicketRow) => keepsSnooze(ticket.status) && ticket.mergedIntoId === null;

/**
 * A snooze left on a ticket that was closed, resolved, marked spam or merged (every path that does
 * so ends the snooze; this catches rows older than that rule): it ends without reopening anything.
 */
const dropStatement = (db: Db, { ticket }: Due) =>
  db.update(tickets).set({ snoozedUntil: null }).where(stillSnoozed(ticket));

/**
 * The minute sweep of one shard: every ticket whose snooze is due goes back to `open` once, with
 * its `ticket.updated` in the same transaction.
 */
export async function wakeDueSnoozes(db: Db, env: WakeEnv, now: number): Promise<number> {
  return wakeSnoozes(db, env, await dueSnoozesQuery(db, now, MAX_WAKES_PER_RUN), now);
}

type WakeEnv = Pick<Env, "PUBLIC_BASE_URL" | "WEBHOOK_QUEUE">;

/**
 * Wakes the snoozes read as `due`. Two sweeps that read the same rows wake each ticket once: the
 * UPDATE is conditional on the snooze read and the event is written only when it changed the row.
 */
export async function wakeSnoozes(db: Db, env: WakeEnv, due: Due[], now: number): Promise<number> {
  let woken = 0;
  for (let i = 0; i < due.length; i += WAKES_PER_BATCH) {
    const statements: Statement[] = [];
    const events: RecordedEvent[] = [];
    const wakes: number[] = [];
    for (const row of due.slice(i, i + WAKES_PER_BATCH)) {
      if (!reopens(row.ticket)) {
        statements.push(dropStatement(db, row));
        continue;
      }
      const wake = wakeStatements(db, row, env.PUBLIC_BASE_URL, now);
      wakes.push(statements.length);
      statements.push(...wake.statements);
      events.push(wake.event);
    }
    const results = await runBatch(db, statements);
    const changed = wakes.map((at) => (results[at]?.meta.changes ?? 0) > 0);
    woken += changed.filter(Boolean).length;
    await announceEvents(
      env.WEBHOOK_QUEUE,
      events.filter((_, k) => changed[k]),
    );
  }
  return woken;
}
