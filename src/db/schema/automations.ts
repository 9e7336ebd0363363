import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

export const AUTOMATION_STATUSES = ["draft", "active", "paused"] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const AUTOMATION_TRIGGERS = ["api", "group_joined", "ticket_resolved"] as const;
export type AutomationTriggerType = (typeof AUTOMATION_TRIGGERS)[number];

/**
 * A workflow that contacts are enrolled into. `steps` is the ordered JSON array of steps, each with
 * its own `id`, so an edit keeps the ids of the steps it keeps and enrolments know where they are.
 * `trigger_ref` is the trigger's target (the `grp_` of group_joined, the `inb_` of ticket_resolved),
 * a column so that a join or a resolve finds its automations through an index.
 */
export const automations = sqliteTable(
  "automations",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    status: text("status", { enum: AUTOMATION_STATUSES }).notNull().default("draft"),
    triggerType: text("trigger_type", { enum: AUTOMATION_TRIGGERS }).notNull(),
    triggerRef: text("trigger_ref"),
    /** JSON array of steps. */
    steps: text("steps").notNull().default("[]"),
    allowReentry: integer("allow_reentry", { mode: "boolean" }).notNull().default(false),
    /** The `whsec_` secret that signs its webhook steps, AES-GCM encrypted like inbox webhook secrets. */
    secretEncrypted: text("secret_encrypted").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("automations_account_created").on(t.accountId, t.createdAt, t.id),
    index("automations_account_trigger").on(t.accountId, t.triggerType, t.triggerRef, t.status),
  ],
);

export const ENROLLMENT_STATUSES = ["active", "completed", "failed", "cancelled"] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

/**
 * One contact's run through an automation (`enr_`). `current_step` is the id of the step it is at
 * (null once finished); `next_run_at` is when a waiting enrolment resumes. `reentry_guard` holds the
 * customer id when the automation does not allow re-entry: a partial unique index over active
 * enrolments then refuses a second active one for that customer, even under concurrent triggers.
 */
export const automationEnrollments = sqliteTable(
  "automation_enrollments",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    automationId: text("automation_id")
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    customerId: text("customer_id").notNull(),
    status: text("status", { enum: ENROLLMENT_STATUSES }).notNull().default("active"),
    currentStep: text("current_step"),
    nextRunAt: integer("next_run_at"),
    triggerType: text("trigger_type", { enum: AUTOMATION_TRIGGERS }).notNull(),
    /** JSON object: the trigger's `data` (api) or what happened (group, ticket). */
    triggerData: text("trigger_data").notNull().default("{}"),
    reentryGuard: text("reentry_guard"),
    /**
     * The enrolment whose step made this one (an `add_to_group` that triggered `group_joined`); null
     * when the API, a person or a ticket made it. Only these are counted by the loop bound.
     */
    causedBy: text("caused_by"),
    /** Why it ended when that is not obvious (a removed step, a cancel, a failure). */
    note: text("note"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [
    // GET /v1/automations/{id}/enrollments, newest first, optionally by status.
    index("enrollments_automation_created").on(t.automationId, t.createdAt, t.id),
    index("enrollments_automation_status_created").on(t.automationId, t.status, t.createdAt, t.id),
    uniqueIndex("enrollments_active_guard")
      .on(t.automationId, t.reentryGuard)
      .where(sql`status = 'active' AND reentry_guard IS NOT NULL`),
    // The minute cron: active enrolments whose wait is over.
    index("enrollments_status_next_run").on(t.status, t.nextRunAt),
    // The loop bound: a customer's enrolments made by automation steps in one automation, recent first.
    index("enrollments_step_made")
      .on(t.automationId, t.customerId, t.createdAt)
      .where(sql`caused_by IS NOT NULL`),
    // The history prune (jobs/prune-automation-history.ts): a workspace's finished enrolments, oldest first.
    index("enrollments_account_finished").on(t.accountId, t.finishedAt).where(sql`finished_at IS NOT NULL`),
  ],
);

export const ENROLLMENT_STEP_STATUSES = ["running", "succeeded", "failed", "skipped"] as const;
export type EnrollmentStepStatus = (typeof ENROLLMENT_STEP_STATUSES)[number];

/**
 * An enrolment's history, one row per step reached. The primary key (enrollment, step) is the
 * claim that makes a step run once: the runner inserts the row before it acts, and a retried or
 * redelivered run that finds the row does not act again. `detail` is JSON (the email id, a
 * webhook's status and duration, the wait's end).
 */
export const enrollmentSteps = sqliteTable(
  "enrollment_steps",
  {
    enrollmentId: text("enrollment_id")
      .notNull()
      .references(() => automationEnrollments.id, { onDelete: "cascade" }),
    stepId: text("step_id").notNull(),
    accountId: text("account_id").notNull(),
    stepType: text("step_type").notNull(),
    status: text("status", { enum: ENROLLMENT_STEP_STATUSES }).notNull(),
    error: text("error"),
    detail: text("detail"),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
  },
  (t) => [primaryKey({ columns: [t.enrollmentId, t.stepId] })],
);
