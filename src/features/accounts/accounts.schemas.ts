import { z } from "@hono/zod-openapi";
import { singleLine } from "../../lib/input";
import { countedListSchema } from "../../lib/pagination";
import { PLAN_NAMES } from "../../lib/plans";
import { parseDuration } from "../../lib/time";

export const AccountSchema = z
  .object({
    id: z.string().openapi({ example: "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string().openapi({ example: "Acme Support" }),
    plan: z.enum(PLAN_NAMES),
    status: z.enum(["active", "suspended"]).openapi({
      description:
        "Set by the service's operators, never through the API. A `suspended` workspace's keys and dashboard sessions get 403 `account_suspended` and POST /login sends its people no link. It sends nothing: an email already queued (API, ticket reply, survey, automation) ends `failed` with `last_response` `account_suspended: ...` and is not sent later; scheduled emails stay `scheduled` and sending or scheduled campaigns hold, both going on by themselves within a minute of reinstatement; an automation run ends `failed` at its next step with the reason in `note`. Inbound mail is still stored.",
    }),
    ticket_prefix: z.string().openapi({ description: "Prefix of ticket `client_id`s.", example: "SUP" }),
    request_log_retention: z
      .string()
      .openapi({ description: "How long request logs are kept.", example: "7d" }),
    email_retention: z.string().openapi({
      description:
        "How long email history is kept, in whole days: the workspace's choice capped by its plan's maximum (the plan's maximum unless lowered). See PATCH /v1/accounts/{id}.",
      example: "30d",
    }),
    email_retention_max: z
      .string()
      .openapi({ description: "The most email history the plan keeps.", example: "30d" }),
    default_track_opens: z.boolean(),
    default_track_clicks: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Account");

export const AccountListSchema = countedListSchema(AccountSchema, "AccountList");

const MIN_RETENTION_SECONDS = 5 * 60;
const MAX_RETENTION_SECONDS = 90 * 86_400;

export const RetentionSchema = z
  .string()
  .refine(
    (value) => {
      const seconds = parseDuration(value);
      return seconds !== null && seconds >= MIN_RETENTION_SECONDS && seconds <= MAX_RETENTION_SECONDS;
    },
    { message: "must be a duration from 5m to 90d, written as a number and m, h or d (for example 12h)" },
  )
  .openapi({ example: "30d" });

/** Whole days, `1d` up; the plan's maximum is checked by the service (a 422 naming the plan). */
export const EmailRetentionSchema = z
  .string()
  .regex(
    /^[1-9][0-9]{0,4}d$/,
    "must be a whole number of days written as a number and d, from 1d (for example 30d)",
  )
  .openapi({ example: "30d" });

export const UpdateAccountBodySchema = z
  .object({
    name: singleLine(100),
    ticket_prefix: z
      .string()
      .regex(/^[A-Z][A-Z0-9]{0,9}$/, "must be 1 to 10 capital letters or digits, starting with a letter"),
    request_log_retention: RetentionSchema,
    email_retention: EmailRetentionSchema,
    default_track_opens: z.boolean(),
    default_track_clicks: z.boolean(),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateAccountRequest");

export type UpdateAccountInput = z.infer<typeof UpdateAccountBodySchema>;

const QuotaUsageSchema = z
  .object({
    current: z.number().int(),
    limit: z.number().int().nullable().openapi({ description: "`null` when unlimited on this plan." }),
    percentage: z.number().nullable().openapi({ description: "current / limit × 100, two decimals." }),
    resets_at: z.string().nullable().openapi({ description: "When the window restarts; `null` for totals." }),
  })
  .openapi("QuotaUsage");

export const UsageSchema = z
  .object({
    account_id: z.string(),
    plan: z.enum(PLAN_NAMES),
    quotas: z.object({
      emails_per_month: QuotaUsageSchema,
      emails_per_day: QuotaUsageSchema,
      emails_per_hour: QuotaUsageSchema,
      storage_bytes: QuotaUsageSchema,
      team_members: QuotaUsageSchema,
    }),
    limits: z
      .object({
        requests_per_minute: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "Per API key, rolling 60 s." }),
        recipients_per_email: z.number().int().nullable(),
        email_retention_days: z.number().int().openapi({
          description: "Days of email history kept: the workspace's `email_retention`, capped by its plan.",
        }),
      })
      .openapi({ description: "Limits that apply per request rather than accumulating." }),
  })
  .openapi("Usage");
