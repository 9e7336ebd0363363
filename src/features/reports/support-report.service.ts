import type { DDSketch } from "@datadog/sketches-js";
import { runBatch } from "../../db/client";
import type { SupportDurationKind } from "../../db/schema";
import type { RequestContext } from "../../lib/request-context";
import { iso } from "../../lib/time";
import type { Interval } from "./report-period";
import { reportBuckets, reportPeriod } from "./support-interval";
import {
  durationsQuery,
  type SupportDayRow,
  type SupportSlice,
  storeSketchStatement,
  supportDaysQuery,
} from "./support-report.repo";
import {
  decodeSketch,
  emptySketch,
  encodeSketch,
  quantileSeconds,
  sketchOf,
} from "./support-report.sketches";

export interface SupportReportQuery {
  from?: string | undefined;
  to?: string | undefined;
  interval?: Interval | undefined;
  inbox_id?: string | undefined;
  assignee_id?: string | undefined;
}

/** A day row with its two sketches ready to merge. */
interface SketchedDay {
  row: SupportDayRow;
  firstResponse: DDSketch;
  resolution: DDSketch;
}

function sliceOf(accountId: string, query: SupportReportQuery): SupportSlice {
  const { inbox_id: inboxId, assignee_id: assigneeId } = query;
  if (inboxId !== undefined && assigneeId !== undefined)
    return { accountId, dimension: "inbox_assignee", value: `${inboxId}/${assigneeId}`, inboxId, assigneeId };
  if (inboxId !== undefined) return { accountId, dimension: "inbox", value: inboxId, inboxId };
  if (assigneeId !== undefined) return { accountId, dimension: "assignee", value: assigneeId, assigneeId };
  return { accountId, dimension: "all", value: "" };
}

const countsOf = (row: SupportDayRow, kind: SupportDurationKind) =>
  kind === "first_response"
    ? { count: row.firstResponseCount, sketched: row.firstResponseSketched, cached: row.firstResponseSketch }
    : { count: row.resolutionCount, sketched: row.resolutionSketched, cached: row.resolutionSketch };

/**
 * Each day's sketch of one kind: the cached one when it holds every duration counted so far;
 * otherwise rebuilt from the day's durations (only days that gained one since the last read: in
 * practice today, or every day once after the backfill), all in one range read, and stored back
 * in one batch of conditional updates.
 */
async function daySketches(
  ctx: RequestContext,
  slice: SupportSlice,
  rows: SupportDayRow[],
  kind: SupportDurationKind,
) {
  const sketches = new Map<number, DDSketch>();
  const stale: number[] = [];
  for (const row of rows) {
    const { count, sketched, cached } = countsOf(row, kind);
    if (count === 0) sketches.set(row.day, emptySketch());
    else if (count === sketched && cached !== null) sketches.set(row.day, decodeSketch(cached));
    else stale.push(row.day);
  }
  const first = stale[0];
  const last = stale.at(-1);
  if (first === undefined || last === undefined) return sketches;
  const durations = await durationsQuery(ctx.db, slice, kind, first, last);
  const staleDays = new Set(stale);
  const byDay = new Map<number, number[]>(stale.map((day) => [day, []]));
  for (const { day, seconds } of durations) if (staleDays.has(day)) byDay.get(day)?.push(seconds);
  const updates = [...byDay].map(([day, seconds]) => {
    const sketch = sketchOf(seconds);
    sketches.set(day, sketch);
    return storeSketchStatement(ctx.db, slice, kind, day, encodeSketch(sketch), seconds.length);
  });
  await runBatch(ctx.db, updates);
  return sketches;
}

const SLA_TARGETS = [
  ["first_response", "slaFirstResponseAchieved", "slaFirstResponseBreached"],
  ["next_response", "slaNextResponseAchieved", "slaNextResponseBreached"],
  ["resolution", "slaResolutionAchieved", "slaResolutionBreached"],
] as const;

/** Per SLA target: outcomes decided in the days, and the share achieved (null when none was). */
function slaAchievement(days: readonly SketchedDay[]) {
  const outcome = ([, achievedKey, breachedKey]: (typeof SLA_TARGETS)[number]) => {
    let achieved = 0;
    let breached = 0;
    for (const { row } of days) {
      achieved += row[achievedKey];
      breached += row[breachedKey];
    }
    const decided = achieved + breached;
    return {
      achieved,
      breached,
      achievement: decided === 0 ? null : Math.round((achieved / decided) * 10_000) / 10_000,
    };
  };
  return Object.fromEntries(SLA_TARGETS.map((target) => [target[0], outcome(target)])) as Record<
    (typeof SLA_TARGETS)[number][0],
    ReturnType<typeof outcome>
  >;
}

function summary(days: readonly SketchedDay[]) {
  const firstResponse = emptySketch();
  const resolution = emptySketch();
  const sum = {
    created: 0,
    resolved: 0,
    reopened: 0,
    replies: 0,
    csatSum: 0,
    csat: 0,
    promoters: 0,
    passives: 0,
    detractors: 0,
  };
  for (const day of days) {
    const r = day.row;
    sum.created += r.created;
    sum.resolved += r.resolved;
    sum.reopened += r.reopened;
    sum.replies += r.replies;
    sum.csatSum += r.csatSum;
    sum.csat += r.csatResponses;
    sum.promoters += r.npsPromoters;
    sum.passives += r.npsPassives;
    sum.detractors += r.npsDetractors;
    firstResponse.merge(day.firstResponse);
    resolution.merge(day.resolution);
  }
  const npsResponses = sum.promoters + sum.passives + sum.detractors;
  return {
    created: sum.created,
    resolved: sum.resolved,
    reopened: sum.reopened,
    replies: sum.replies,
    first_responses: firstResponse.count,
    first_response_p50: quantileSeconds(firstResponse, 0.5),
    first_response_p90: quantileSeconds(firstResponse, 0.9),
    resolution_p50: quantileSeconds(resolution, 0.5),
    resolution_p90: quantileSeconds(resolution, 0.9),
    csat_average: sum.csat === 0 ? null : Math.round((sum.csatSum / sum.csat) * 100) / 100,
    csat_responses: sum.csat,
    nps: npsResponses === 0 ? null : Math.round(((sum.promoters - sum.detractors) / npsResponses) * 100),
    nps_responses: npsResponses,
    nps_promoters: sum.promoters,
    nps_passives: sum.passives,
    nps_detractors: sum.detractors,
    sla: slaAchievement(days),
  };
}

/** GET /v1/reports/support: the slice's day rollups over the period, summed and merged per interval. */
export async function supportReport(ctx: RequestContext, query: SupportReportQuery) {
  const slice = sliceOf(ctx.accountId, query);
  const period = reportPeriod(query, ctx.now);
  const rows = await supportDaysQuery(ctx.db, slice, period.from, period.to);
  const [firstResponses, resolutions] = await Promise.all([
    daySketches(ctx, slice, rows, "first_response"),
    daySketches(ctx, slice, rows, "resolution"),
  ]);
  const days: SketchedDay[] = rows.map((row) => ({
    row,
    firstResponse: firstResponses.get(row.day) ?? emptySketch(),
    resolution: resolutions.get(row.day) ?? emptySketch(),
  }));
  const data = reportBuckets(period).map((bucket) => ({
    start: iso(bucket.start),
    end: iso(bucket.end),
    ...summary(days.filter((day) => day.row.day >= bucket.start && day.row.day < bucket.end)),
  }));
  return {
    data,
    totals: summary(days),
    from: iso(period.from),
    to: iso(period.to),
    interval: period.interval,
  };
}
