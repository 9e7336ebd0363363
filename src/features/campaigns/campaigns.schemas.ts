import { z } from "@hono/zod-openapi";
import { CAMPAIGN_STATUSES } from "../../db/schema";
import { maxJsonBytes, refineWith, singleLine } from "../../lib/input";
import { namedListSchema, offsetQuery } from "../../lib/pagination";
import { parseAddress } from "../../mail/address";
import { subjectProblem } from "../../mail/mime/checks";

const CAMPAIGN_ID_EXAMPLE = "cmp_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
const MAX_BODY_BYTES = 512 * 1024;
const VARIABLES =
  "Variables filled per recipient: `{{first_name}}`, `{{name}}`, `{{email}}`, `{{name|fallback}}` (the fallback when the value is empty) and `{{unsubscribe_url}}`; HTML-escaped in `html`, as they are in `text` and `subject`.";

const Address = z
  .string()
  .trim()
  .max(320)
  .refine((text) => parseAddress(text) !== null, "must be an address such as Acme <news@acme.com>");

const Body = z.string().superRefine(maxJsonBytes(MAX_BODY_BYTES));

const Stats = z
  .object({
    recipients: z
      .number()
      .int()
      .openapi({ description: "Recipient rows to send (unsubscribed members excluded)." }),
    sent: z.number().int(),
    suppressed: z.number().int().openapi({ description: "Recipients on the suppression list: not sent." }),
    failed: z.number().int(),
    opened: z.number().int().openapi({ description: "Campaign emails opened at least once." }),
    clicked: z.number().int().openapi({ description: "Campaign emails with at least one tracked click." }),
    unsubscribed: z.number().int(),
    bounced: z.number().int(),
  })
  .openapi("CampaignStats");

export const CampaignSchema = z
  .object({
    id: z.string().openapi({ example: CAMPAIGN_ID_EXAMPLE }),
    name: z.string(),
    from: z.string().openapi({ example: "Acme <news@acme.com>" }),
    reply_to: z.string().nullable(),
    subject: z.string(),
    html: z.string().nullable(),
    text: z.string().nullable(),
    contact_group_ids: z.array(z.string()),
    status: z.enum(CAMPAIGN_STATUSES),
    paused_reason: z.string().nullable().openapi({
      description: "Why the service paused a sending campaign (a quota reached); null otherwise.",
    }),
    scheduled_at: z.string().nullable(),
    sent_at: z.string().nullable(),
    stats: Stats,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Campaign");

export const CampaignListSchema = namedListSchema("campaigns", CampaignSchema, "CampaignList");
export const CampaignListQuerySchema = offsetQuery(20).extend({
  status: z.enum(CAMPAIGN_STATUSES).optional().openapi({ description: "Only campaigns in this status." }),
});

const fields = {
  name: singleLine(200).openapi({ example: "November newsletter" }),
  from: Address.openapi({
    description: "Its domain must be a verified connection when the campaign is sent.",
  }),
  reply_to: Address.nullable(),
  subject: z
    .string()
    .min(1)
    .max(998)
    .superRefine(refineWith(subjectProblem))
    .openapi({ description: `One line. ${VARIABLES}` }),
  html: Body.nullable().openapi({
    description: `Must contain \`{{unsubscribe_url}}\` to be sent. ${VARIABLES}`,
  }),
  text: Body.nullable().openapi({
    description: "Optional plain-text part; without `{{unsubscribe_url}}` the link is appended to it.",
  }),
  contact_group_ids: z
    .array(z.string())
    .max(100)
    .openapi({ description: "Contact groups of the workspace (404 for any other id)." }),
};

export const CreateCampaignBodySchema = z
  .object({
    ...fields,
    reply_to: fields.reply_to.optional(),
    html: fields.html.optional(),
    text: fields.text.optional(),
    contact_group_ids: fields.contact_group_ids.optional(),
  })
  .strict()
  .openapi("CreateCampaignRequest");

export const UpdateCampaignBodySchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateCampaignRequest");

export const SendCampaignBodySchema = z
  .object({
    scheduled_at: z.iso
      .datetime({ offset: true })
      .optional()
      .openapi({ description: "Send at this time (the minute sweep starts it); now when absent or past." }),
  })
  .strict()
  .openapi("SendCampaignRequest");

export const TestCampaignBodySchema = z
  .object({
    to: z
      .string()
      .trim()
      .max(320)
      .refine((t) => parseAddress(t) !== null, "must be an email address"),
  })
  .strict()
  .openapi("TestCampaignRequest");

export const TestCampaignResultSchema = z
  .object({ email_id: z.string().openapi({ example: "eml_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }) })
  .openapi("TestCampaignResult");

export type CreateCampaignInput = z.infer<typeof CreateCampaignBodySchema>;
export type UpdateCampaignInput = z.infer<typeof UpdateCampaignBodySchema>;

/**
 * A `cmp_` id only, so that `/v1/campaigns/unsubscribed` (another router) is never taken for an id.
 * No `}` inside: @hono/zod-openapi turns `{id{...}}` into Hono's `:id{...}` with a non-greedy match.
 */
export const CAMPAIGN_ID_PATH = "{id{cmp_[0-9A-Za-z]+}}";

export const CampaignParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: CAMPAIGN_ID_EXAMPLE }),
});
