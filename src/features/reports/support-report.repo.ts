import { and, asc, eq, gte, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type SupportDimension,
  type SupportDurationKind,
  supportDaily,
  supportDurations,
} from "../../db/schema";

export type SupportDayRow = typeof supportDaily.$inferSelect;

/** One slice of a workspace: all of it ('' as value), one inbox or one assignee. */
export interface SupportSlice {
  accountId: string;
  dimension: SupportDimension;
  value: string;
}

/**
 * The slice's day rows in [from, to): a range of the (account, dimension, value, day) primary
 * key, so the cost follows the number of days, not of tickets. Exposed so a test can check its plan.
 */
export function supportDaysQuery(db: Db, slice: SupportSlice, from: number, to: number) {
  return db
    .select()
    .from(supportDaily)
    .where(
      and(
        eq(supportDaily.accountId, slice.accountId),
        eq(supportDaily.dimension, slice.dimension),
        eq(supportDaily.dimensionValue, slice.value),
        gte(supportDaily.day, from),
        lt(supportDaily.day, to),
      ),
    )
    .orderBy(asc(supportDaily.day));
}

/** A day's measured durations of one kind in the slice: what its cached sketch is rebuilt from. */
export async function dayDurations(db: Db, slice: SupportSlice, kind: SupportDurationKind, day: number) {
  const sliceColumn =
    slice.dimension === "inbox"
      ? eq(supportDurations.inboxId, slice.value)
      : slice.dimension === "assignee"
        ? eq(supportDurations.assigneeId, slice.value)
        : undefined;
  const rows = await db
    .select({ seconds: supportDurations.seconds })
    .from(supportDurations)
    .where(
      and(
        eq(supportDurations.accountId, slice.accountId),
        eq(supportDurations.kind, kind),
        eq(supportDurations.day, day),
        sliceColumn,
      ),
    );
  return rows.map((row) => row.seconds);
}

/**
 * Stores a rebuilt sketch only if the day's count is still the one it was built from: a duration
 * that landed meanwhile leaves the row stale, and the next reader rebuilds it. Nothing is lost
 * either way, since the sketch is a cache of support_durations, never the only copy.
 */
export async function storeDaySketch(
  db: Db,
  slice: SupportSlice,
  kind: SupportDurationKind,
  day: number,
  sketch: string,
  builtFrom: number,
) {
  const pk = and(
    eq(supportDaily.accountId, slice.accountId),
    eq(supportDaily.dimension, slice.dimension),
    eq(supportDaily.dimensionValue, slice.value),
    eq(supportDaily.day, day),
  );
  if (kind === "first_response")
    await db
      .update(supportDaily)
      .set({ firstResponseSketch: sketch, firstResponseSketched: builtFrom })
      .where(and(pk, eq(supportDaily.firstResponseCount, builtFrom)));
  else
    await db
      .update(supportDaily)
      .set({ resolutionSketch: sketch, resolutionSketched: builtFrom })
      .where(and(pk, eq(supportDaily.resolutionCount, builtFrom)));
}
