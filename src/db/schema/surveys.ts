import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";

/** product.md: CSAT rates 1–5, NPS 0–10. */
export const SURVEY_KINDS = ["csat", "nps"] as const;
export type SurveyKind = (typeof SURVEY_KINDS)[number];

export const SURVEY_STATUSES = ["active", "disabled"] as const;
export type SurveyStatus = (typeof SURVEY_STATUSES)[number];

/**
 * A satisfaction survey sent when a ticket of one of its inboxes is resolved. The summary
 * (`responses`, `average`, the NPS score) is read from counters that triggers on survey_responses
 * (migration 0020) move in the statement that inserts, re-rates or deletes a response, so it stays
 * exact under concurrent answers. `kind` is fixed once any email of the survey went out.
 */
export const surveys = sqliteTable(
  "surveys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: SURVEY_KINDS }).notNull(),
    question: text("question").notNull(),
    status: text("status", { enum: SURVEY_STATUSES }).notNull().default("active"),
    responsesCount: integer("responses_count").notNull().default(0),
    ratingSum: integer("rating_sum").notNull().default(0),
    /** NPS: ratings 9–10 and 0–6. */
    promotersCount: integer("promoters_count").notNull().default(0),
    detractorsCount: integer("detractors_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [index("surveys_account_created").on(t.accountId, t.createdAt, t.id)],
);

/**
 * Which inboxes a survey covers (`inbox_ids`), one row each, so that resolving a ticket finds the
 * survey of its inbox through an index instead of scanning JSON.
 */
export const surveyInboxes = sqliteTable(
  "survey_inboxes",
  {
    surveyId: text("survey_id")
      .notNull()
      .references(() => surveys.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id").notNull(),
    accountId: text("account_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.surveyId, t.inboxId] }),
    index("survey_inboxes_account_inbox").on(t.accountId, t.inboxId),
  ],
);

/**
 * One row per ticket that was sent a survey: the unique `ticket_id` makes "once per ticket" hold
 * under concurrent or repeated resolves. It keeps who the ticket was assigned to when the survey
 * went out, and the email that carried it.
 */
export const surveyRequests = sqliteTable(
  "survey_requests",
  {
    ticketId: text("ticket_id").primaryKey(),
    accountId: text("account_id").notNull(),
    surveyId: text("survey_id")
      .notNull()
      .references(() => surveys.id, { onDelete: "cascade" }),
    inboxId: text("inbox_id").notNull(),
    customerId: text("customer_id").notNull(),
    assigneeId: text("assignee_id"),
    emailId: text("email_id"),
    sentAt: integer("sent_at").notNull(),
  },
  (t) => [index("survey_requests_survey").on(t.surveyId, t.sentAt)],
);

/**
 * A customer's answer (`rsp_`): one per ticket, created by the first POST from a rating link and
 * editable for 14 days after that.
 */
export const surveyResponses = sqliteTable(
  "survey_responses",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    surveyId: text("survey_id")
      .notNull()
      .references(() => surveys.id, { onDelete: "cascade" }),
    ticketId: text("ticket_id").notNull(),
    inboxId: text("inbox_id").notNull(),
    customerId: text("customer_id").notNull(),
    assigneeId: text("assignee_id"),
    rating: integer("rating").notNull(),
    comment: text("comment"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("survey_responses_ticket").on(t.ticketId),
    // GET /v1/surveys/{id}/responses, newest first, and its filters.
    index("survey_responses_survey_created").on(t.surveyId, t.createdAt, t.id),
    index("survey_responses_survey_rating").on(t.surveyId, t.rating, t.createdAt, t.id),
    index("survey_responses_survey_inbox").on(t.surveyId, t.inboxId, t.createdAt, t.id),
  ],
);
