import { and, asc, eq, gte, lt, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  type SupportDimension,
  type SupportDurationKind,
  supportDaily,
  supportDurations,
} from "../../db/schema";

export type SupportDayRow = typeof supportDaily.$inferSelect;

/**
 * One slice of a workspace: all of it ('' as value), one inbox, one assignee, or one assignee in
 * one inbox (`inbox_id/assignee_id`). `inboxId`/`assigneeId` say which durations belong to it.
 */
export interface SupportSlice {
  accountId: string;
  dimension: SupportDimension;
  value: string;
  inboxId?: string | undefined;
  assigneeId?: string | undefined;
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

/**
 * The slice's measured durations of one kind on the days [first, last], grouped by day: what the
 * cached sketches of those days are rebuilt from, in one range of (account_id, kind, day).
 */
export function durationsQuery(
  db: Db,
  slice: SupportSlice,
  kind: SupportDurationKind,
  first: number,
  last: number,
) {
  return db
    .select({ day: supportDurations.day, seconds: supportDurations.seconds })
    .from(supportDurations)
    .where(
      and(
        eq(supportDurations.accountId, slice.accountId),
        eq(supportDurations.kind, kind),
        gte(supportDurations.day, first),
        lte(supportDurations.day, last),
        slice.inboxId === undefined ? undefined : eq(supportDurations.inboxId, slice.inboxId),
        slice.assigneeId === undefined ? undefined : eq(supportDurations.assigneeId, slice.assigneeId),
      ),
    );
}

/**
 * Stores a rebuilt sketch only if the day's count is still the one it was built from: a duration
 * that landed meanwhile leaves the row stale, and the next reader rebuilds it. Nothing is lost
 * either way, since the sketch is a cache of support_durations, never the only copy.
 */
export function storeSketchStatement(
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
    return db
      .update(supportDaily)
      .set({ firstResponseSketch: sketch, firstResponseSketched: builtFrom })
      .where(and(pk, eq(supportDaily.firstResponseCount, builtFrom)));
  return db
    .update(supportDaily)
    .set({ resolutionSketch: sketch, resolutionSketched: builtFrom })
    .where(and(pk, eq(supportDaily.resolutionCount, builtFrom)));
}
