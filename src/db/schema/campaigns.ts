import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts } from "./accounts";
import { customers } from "./support";

/** product.md: draft → scheduled → sending → sent; paused from sending; cancelled from scheduled, sending, paused. */
export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "paused", "sent", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * A bulk email to the members of contact groups. The stats are counters kept by SQL increments in
 * the same batches that move recipients (never recounted), so they stay exact under concurrency.
 */
export const campaigns = sqliteTable(
  "campaigns",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** As given ("Name <a@b>" allowed). */
    from: text("from").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    html: text("html"),
    text: text("text"),
    /**
     * A stored template instead of html/text (`tpl_` id, resolved from an alias when written). The
     * version is the one named, else the published one pinned when the campaign is sent or
     * scheduled, so every recipient gets the same content. The variables are JSON, static values.
     */
    templateId: text("template_id"),
    templateVersionId: text("template_version_id"),
    templateVariables: text("template_variables"),
    /** The published version of the layout the pinned version names, pinned with it (migration 0058). */
    templateLayoutVersionId: text("template_layout_version_id"),
    /** JSON array of `grp_` ids. */
    contactGroupIds: text("contact_group_ids").notNull().default("[]"),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    /** Why a sending campaign was paused by the service (a quota reached), null when paused by hand. */
    pausedReason: text("paused_reason"),
    scheduledAt: integer("scheduled_at"),
    startedAt: integer("started_at"),
    sentAt: integer("sent_at"),
    recipientsCount: integer("recipients_count").notNull().default(0),
    sentCount: integer("sent_count").notNull().default(0),
    suppressedCount: integer("suppressed_count").notNull().default(0),
    failedCount: integer("failed_count").notNull().default(0),
    openedCount: integer("opened_count").notNull().default(0),
    clickedCount: integer("clicked_count").notNull().default(0),
    unsubscribedCount: integer("unsubscribed_count").notNull().default(0),
    bouncedCount: integer("bounced_count").notNull().default(0),
    /** Recipients skipped because a template variable had no value and no fallback. */
    missingVariablesCount: integer("missing_variables_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("campaigns_account_created").on(t.accountId, t.createdAt, t.id),
    // The minute cron finds due scheduled campaigns and stalled sending ones through this.
    index("campaigns_status_scheduled").on(t.status, t.scheduledAt),
  ],
);

export const CAMPAIGN_RECIPIENT_STATES = [
  "pending",
  "queued",
  "sent",
  "suppressed",
  "failed",
  "skipped",
] as const;
export type CampaignRecipientState = (typeof CAMPAIGN_RECIPIENT_STATES)[number];

/**
 * One row per (campaign, customer), written before any mail leaves: the idempotency key of the
 * send. A batch claims `pending` rows and moves each exactly once, so a redelivered batch, the
 * sweep or a resumed campaign never sends a customer twice. `email_id` names the email it became.
 */
export const campaignRecipients = sqliteTable(
  "campaign_recipients",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    email: text("email").notNull(),
    state: text("state", { enum: CAMPAIGN_RECIPIENT_STATES }).notNull().default("pending"),
    emailId: text("email_id"),
    /** Why it was not sent (suppressed, failed, skipped). */
    detail: text("detail"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.campaignId, t.customerId] }),
    // Batches take the next pending rows in order; lists page by state.
    index("campaign_recipients_campaign_state").on(t.campaignId, t.state, t.customerId),
    index("campaign_recipients_customer").on(t.customerId),
    // A delivery settles its recipient by the email id: without this, each one scanned every row.
    index("campaign_recipients_email").on(t.emailId),
  ],
);

/**
 * How many recipient rows each campaign has in each state, so GET /v1/campaigns/{id}/recipients
 * reads its exact total (at most six rows) instead of counting. Triggers on campaign_recipients
 * keep it, whatever writes the rows (sends, batches, customer and campaign cascades).
 */
export const campaignRecipientCounts = sqliteTable(
  "campaign_recipient_counts",
  {
    campaignId: text("campaign_id")
      .notNull()
      .references(() => campaigns.id, { onDelete: "cascade" }),
    state: text("state", { enum: CAMPAIGN_RECIPIENT_STATES }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.state] })],
);
