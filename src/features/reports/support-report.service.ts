import type { DDSketch } from "@datadog/sketches-js";
import type { SupportDurationKind } from "../../db/schema";
import { badRequest } from "../../lib/errors";
import type { RequestContext } from "../../lib/request-context";
import { iso } from "../../lib/time";
import { type ReportInterval, reportBuckets, reportPeriod } from "./support-interval";
import {
  dayDurations,
  type SupportDayRow,
  type SupportSlice,
  storeDaySketch,
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
  interval?: ReportInterval | undefined;
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
  if (query.inbox_id !== undefined && query.assignee_id !== undefined)
    throw badRequest("invalid_filter", "Filter by `inbox_id` or by `assignee_id`, not both");
  if (query.inbox_id !== undefined) return { accountId, dimension: "inbox", value: query.inbox_id };
  if (query.assignee_id !== undefined) return { accountId, dimension: "assignee", value: query.assignee_id };
  return { accountId, dimension: "all", value: "" };
}

/**
 * The day's cached sketch when it holds every duration counted so far; otherwise it is rebuilt
 * from the day's durations (only days that gained one since the last read: in practice today).
 */
async function daySketch(
  ctx: RequestContext,
  slice: SupportSlice,
  row: SupportDayRow,
  kind: SupportDurationKind,
) {
  const [count, sketched, cached] =
    kind === "first_response"
      ? [row.firstResponseCount, row.firstResponseSketched, row.firstResponseSketch]
      : [row.resolutionCount, row.resolutionSketched, row.resolutionSketch];
  if (count === 0) return emptySketch();
  if (count === sketched && cached !== null) return decodeSketch(cached);
  const seconds = await dayDurations(ctx.db, slice, kind, row.day);
  const sketch = sketchOf(seconds);
  await storeDaySketch(ctx.db, slice, kind, row.day, encodeSketch(sketch), seconds.length);
  return sketch;
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
  };
}

/** GET /v1/reports/support: the slice's day rollups over the period, summed and merged per interval. */
export async function supportReport(ctx: RequestContext, query: SupportReportQuery) {
  const slice = sliceOf(ctx.accountId, query);
  const period = reportPeriod(query, ctx.now);
  const rows = await supportDaysQuery(ctx.db, slice, period.from, period.to);
  const days: SketchedDay[] = await Promise.all(
    rows.map(async (row) => ({
      row,
      firstResponse: await daySketch(ctx, slice, row, "first_response"),
      resolution: await daySketch(ctx, slice, row, "resolution"),
    })),
  );
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
