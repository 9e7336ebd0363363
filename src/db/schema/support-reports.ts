import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/**
 * The slices the support report filters by: the whole workspace, one inbox, one assignee, and
 * one assignee within one inbox (`inbox_assignee`, valued `inbox_id/assignee_id`; migration 0027).
 */
export const SUPPORT_DIMENSIONS = ["all", "inbox", "assignee", "inbox_assignee"] as const;
export type SupportDimension = (typeof SUPPORT_DIMENSIONS)[number];

export const SUPPORT_DURATION_KINDS = ["first_response", "resolution"] as const;
export type SupportDurationKind = (typeof SUPPORT_DURATION_KINDS)[number];

/**
 * One row per workspace, UTC day and slice (`dimension_value` is '' for `all`). Triggers of
 * migration 0026 move the counters inside the statement that writes the fact (a ticket inserted,
 * a status changed, a reply leaving draft, a survey answered or re-rated), so a retry that changes
 * nothing counts nothing and concurrent writers cannot lose an increment. The sketches are a cache
 * of the day's support_durations rows: `*_sketched` says how many durations they hold, and a
 * reader rebuilds a sketch whose count lags (support-report.sketches.ts).
 */
export const supportDaily = sqliteTable(
  "support_daily",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    dimension: text("dimension", { enum: SUPPORT_DIMENSIONS }).notNull(),
    dimensionValue: text("dimension_value").notNull(),
    /** Epoch milliseconds of the UTC midnight that starts the day. */
    day: integer("day").notNull(),
    created: integer("created").notNull().default(0),
    resolved: integer("resolved").notNull().default(0),
    reopened: integer("reopened").notNull().default(0),
    replies: integer("replies").notNull().default(0),
    csatSum: integer("csat_sum").notNull().default(0),
    csatResponses: integer("csat_responses").notNull().default(0),
    npsPromoters: integer("nps_promoters").notNull().default(0),
    npsPassives: integer("nps_passives").notNull().default(0),
    npsDetractors: integer("nps_detractors").notNull().default(0),
    firstResponseCount: integer("first_response_count").notNull().default(0),
    resolutionCount: integer("resolution_count").notNull().default(0),
    firstResponseSketch: text("first_response_sketch"),
    firstResponseSketched: integer("first_response_sketched").notNull().default(0),
    resolutionSketch: text("resolution_sketch"),
    resolutionSketched: integer("resolution_sketched").notNull().default(0),
    /**
     * SLA outcomes decided that day, per target (migration 0054's trigger): a target met within
     * its time is achieved on the day it was met; one missed is breached on the day of its due
     * time (or the day it was met late, when no sweep had marked it yet). Each clock counts once.
     */
    slaFirstResponseAchieved: integer("sla_first_response_achieved").notNull().default(0),
    slaFirstResponseBreached: integer("sla_first_response_breached").notNull().default(0),
    slaNextResponseAchieved: integer("sla_next_response_achieved").notNull().default(0),
    slaNextResponseBreached: integer("sla_next_response_breached").notNull().default(0),
    slaResolutionAchieved: integer("sla_resolution_achieved").notNull().default(0),
    slaResolutionBreached: integer("sla_resolution_breached").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.dimension, t.dimensionValue, t.day] })],
);

/**
 * Every first-response and resolution time, in seconds, on the day it was measured: the source
 * the day's sketches are rebuilt from, so a sketch is never read-modified-written by two writers.
 */
export const supportDurations = sqliteTable(
  "support_durations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: SUPPORT_DURATION_KINDS }).notNull(),
    day: integer("day").notNull(),
    ticketId: text("ticket_id").notNull(),
    inboxId: text("inbox_id").notNull(),
    assigneeId: text("assignee_id"),
    seconds: real("seconds").notNull(),
  },
  (t) => [
    index("support_durations_account_kind_day").on(t.accountId, t.kind, t.day),
    index("support_durations_ticket_kind").on(t.ticketId, t.kind),
  ],
);
