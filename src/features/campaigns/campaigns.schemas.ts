import { z } from "@hono/zod-openapi";
import { CAMPAIGN_STATUSES } from "../../db/schema";
import { maxJsonBytes, refineWith, singleLine } from "../../lib/input";
import { namedListSchema, offsetQuery } from "../../lib/pagination";
import { parseAddress } from "../../mail/address";
import { subjectProblem } from "../../mail/mime/checks";
import { SendTemplateSchema } from "../templates/templates.schemas";

const CAMPAIGN_ID_EXAMPLE = "cmp_01JD3Z6X8Y9ABCDEFGHJKMNPQR";
const MAX_BODY_BYTES = 512 * 1024;
const VARIABLES =
  "Variables filled per recipient: `{{first_name}}`, `{{name}}`, `{{email}}`, `{{name|fallback}}` (the fallback when the value is empty) and `{{unsubscribe_url}}`; HTML-escaped in `html`, as they are in `text` and `subject`.";

/** Where a template's values come from, per recipient (template-values.ts). */
const TEMPLATE_SOURCES =
  "a declared variable takes the campaign's static value, else the contact's field of that name whatever its case (`email`, `name`, `first_name`, `group_name`: the first of the campaign's groups the contact is in, `unsubscribe_url`), else the contact's `metadata` key of that name, else its `fallback_value`; a value must be of the variable's type. A recipient left without a value is `skipped` with `detail` `missing_variables: KEY, ...` (counted in `stats.missing_variables`), never sent a placeholder.";

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
    missing_variables: z.number().int().openapi({
      description:
        "Recipients skipped because a template variable had no value and no fallback: `skipped`, the variables named in their `detail`.",
    }),
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
    template: z
      .object({
        id: z.string().openapi({ example: "tpl_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
        version_id: z.string().nullable().openapi({
          description:
            "The version every recipient gets: the one named, else the published one pinned when the campaign was sent or scheduled; null until then.",
        }),
        variables: z.record(z.string(), z.union([z.string(), z.number()])),
      })
      .nullable()
      .openapi({
        description: "The stored template the campaign sends instead of `html`/`text`; null without one.",
      }),
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
  template: SendTemplateSchema.nullable().openapi({
    description: `A stored template (id or alias; optional \`version_id\`, a published version) instead of \`html\`/\`text\` (400 with either). \`variables\` are static values for every recipient; the others come from each contact: ${TEMPLATE_SOURCES} 404 for a template or version not of this workspace; 422 \`template_variables_invalid\` naming each value not declared or of the wrong type (checked when written and again when sent).`,
  }),
};

/** A template replaces the campaign's own body: not both. */
const oneBody = (body: { template?: unknown; html?: unknown; text?: unknown }, ctx: z.RefinementCtx) => {
  if (body.template && (body.html || body.text))
    ctx.addIssue({
      code: "custom",
      path: ["template"],
      message: "give `template` or `html`/`text`, not both",
    });
};

export const CreateCampaignBodySchema = z
  .object({
    ...fields,
    reply_to: fields.reply_to.optional(),
    html: fields.html.optional(),
    text: fields.text.optional(),
    contact_group_ids: fields.contact_group_ids.optional(),
    template: fields.template.optional(),
  })
  .strict()
  .superRefine(oneBody)
  .openapi("CreateCampaignRequest");

export const UpdateCampaignBodySchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .superRefine(oneBody)
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
