import type { Db } from "../../db/client";
import { notFound } from "../../lib/errors";
import { type Event, toEvent } from "./event-stream.dto";
import { deliveriesOf, type EventFilter, eventQueries, findEvent } from "./event-stream.repo";

/** A page of the event stream, newest first, each event with its deliveries, and the filtered total. */
export async function listEvents(
  db: Db,
  filter: EventFilter,
  limit: number,
  offset: number,
): Promise<{ events: Event[]; total: number }> {
  const { page, total } = eventQueries(db, filter, limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  const deliveries =
    rows.length > 0
      ? await deliveriesOf(
          db,
          rows.map((row) => row.id),
        )
      : [];
  return { events: rows.map((row) => toEvent(row, deliveries)), total: totals[0]?.total ?? 0 };
}

/** One event of the workspace with its deliveries; another workspace's id is not found. */
export async function getEvent(db: Db, accountId: string, id: string): Promise<Event> {
  const row = await findEvent(db, accountId, id);
  if (!row) throw notFound(`Event ${id}`);
  return toEvent(row, await deliveriesOf(db, [row.id]));
}
