import { z } from "@hono/zod-openapi";
import { idempotencyHeader } from "../../lib/idempotent-create";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CAMPAIGN_ID_PATH,
  CampaignListQuerySchema,
  CampaignListSchema,
  CampaignParamsSchema,
  CampaignSchema,
  CreateCampaignBodySchema,
  SendCampaignBodySchema,
  TestCampaignBodySchema,
  TestCampaignResultSchema,
  UpdateCampaignBodySchema,
} from "./campaigns.schemas";
import { CampaignRecipientListQuerySchema, CampaignRecipientListSchema } from "./recipient-list.schemas";

const tags = ["Campaigns"];
const one = `/v1/campaigns/${CAMPAIGN_ID_PATH}`;
const STATES =
  "Status: `draft` → `scheduled` → `sending` → `sent`; `paused` from `sending` (and back with resume); `cancelled` from `scheduled`, `sending` or `paused`. A move the campaign's status does not allow is a 400 `invalid_campaign_status` naming the status.";
const illegal = jsonResponse(
  ErrorSchema,
  "`invalid_campaign_status`: the campaign's status does not allow this move.",
);

export const listCampaignsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/campaigns",
  tags,
  summary: "List campaigns",
  description:
    "The workspace's campaigns, newest first, `limit` 20 by default (at most 100); `status` filters.",
  request: { query: CampaignListQuerySchema },
  responses: { 200: jsonResponse(CampaignListSchema, "A page of campaigns.") },
});

const TEMPLATE =
  "`template` (id or alias, optional `version_id`, static `variables`) sends a stored template instead of `html`/`text`: 404 for a template or version not of this workspace.";

const templateRefused = jsonResponse(
  ErrorSchema,
  "The campaign's template cannot be used: `template_variables_invalid` (`details` names each variable), `template_not_published`, `template_version_not_published`.",
);

export const createCampaignRoute = defineRoute("write", {
  method: "post",
  path: "/v1/campaigns",
  tags,
  summary: "Create a campaign",
  description: `A draft. Every \`contact_group_ids\` entry must be a contact group of the workspace: otherwise 404 and nothing is created. ${TEMPLATE} ${STATES}`,
  request: {
    headers: idempotencyHeader("A retried create answers the first draft: no second campaign."),
    body: jsonBody(CreateCampaignBodySchema),
  },
  responses: {
    201: jsonResponse(CampaignSchema, "The new draft campaign."),
    422: templateRefused,
    409: jsonResponse(
      ErrorSchema,
      "The Idempotency-Key was used with another body (`idempotency_key_reused`).",
    ),
  },
});

export const getCampaignRoute = defineRoute("read", {
  method: "get",
  path: one,
  tags,
  summary: "Get a campaign",
  description:
    "With its live `stats`, kept exact as recipients are sent, suppressed, fail, open, click, bounce or unsubscribe.",
  request: { params: CampaignParamsSchema },
  responses: { 200: jsonResponse(CampaignSchema, "The campaign.") },
});

export const listCampaignRecipientsRoute = defineRoute("read", {
  method: "get",
  path: `${one}/recipients`,
  tags,
  summary: "List a campaign's recipients",
  description:
    "Who the campaign goes to and what became of each: one row per customer, written when sending begins (a draft or scheduled campaign has none). `state`: `pending` (not yet taken by a batch), `queued` (an email, `email_id`, awaits delivery), `sent`, `suppressed`, `failed` (`detail` says `failed` or `bounced`) or `skipped` (`detail` says `unsubscribed` or `cancelled`). Ordered by `customer_id`, oldest customer first, which is the order batches send in and the order an index keeps, so pages are stable and no page sorts; `state` filters. `limit` 50 by default (at most 100). `total` is exact, read from per-state counters kept with the rows, never counted; `stats` on the campaign counts outcomes (opens, clicks, bounces) that this list does not.",
  request: { params: CampaignParamsSchema, query: CampaignRecipientListQuerySchema },
  responses: { 200: jsonResponse(CampaignRecipientListSchema, "A page of recipients.") },
});

export const updateCampaignRoute = defineRoute("write", {
  method: "patch",
  path: one,
  tags,
  summary: "Update a draft campaign",
  description:
    "Changes the fields given. Only a `draft` can be edited (400 `invalid_campaign_status` otherwise); an unknown contact group is a 404. A `template` replaces the campaign's `html` and `text` (null removes it); `html` or `text` (not null) replaces its template; null ones leave a template campaign as it is. The template's static values are checked as on create (422).",
  request: { params: CampaignParamsSchema, body: jsonBody(UpdateCampaignBodySchema) },
  responses: {
    200: jsonResponse(CampaignSchema, "The updated campaign."),
    400: illegal,
    422: templateRefused,
  },
});

export const deleteCampaignRoute = defineRoute("write", {
  method: "delete",
  path: one,
  tags,
  summary: "Delete a draft campaign",
  description: "Only a draft can be deleted: any other status is a 409 `campaign_not_draft`.",
  request: { params: CampaignParamsSchema },
  responses: {
    200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted."),
    409: jsonResponse(ErrorSchema, "The campaign is not a draft."),
  },
});

export const sendCampaignRoute = defineRoute("write", {
  method: "post",
  path: `${one}/send`,
  tags,
  summary: "Send or schedule a campaign",
  description:
    "From `draft` or `scheduled`. Needs the from domain to be a verified connection of the workspace, `{{unsubscribe_url}}` in the html and at least one contact group: otherwise 400 `campaign_not_ready` whose `missing` names each. With a future `scheduled_at` (at most 365 days ahead) the campaign is `scheduled` and the minute sweep starts it; otherwise it is `sending` at once. Sending first writes one recipient row per member of its groups (each customer once; unsubscribed customers are skipped), then sends batches of at most 100 through the pipeline of POST /v1/emails: suppressed addresses are counted in `stats.suppressed`, not sent. Every email carries the recipient's `List-Unsubscribe` and `List-Unsubscribe-Post` headers and the tag `campaign:<id>` (GET /v1/emails?tag=campaign:<id> lists them). A quota reached mid-send pauses the campaign with `paused_reason`. While the workspace is suspended a sending or scheduled campaign holds (no batch sends, its status stays) and goes on by itself within a minute of reinstatement; emails of it already queued end `failed` (`account_suspended`). With a `template`: its html must use `unsubscribe_url` (400 `campaign_not_ready`); the version sent is the one named, else the published one now, pinned on the campaign (`template.version_id`) so every recipient gets it, even if the template is republished mid-send; 422 `template_not_published` / `template_version_not_published`, 422 `template_variables_invalid` for a static value not declared or mistyped or a variable with no fallback that nothing can fill (not static, not a contact field, in no member's metadata); 404 when the template was removed. A recipient without a value for some variable is `skipped` (`detail` `missing_variables: ...`, counted in `stats.missing_variables`). The pinned version is read with each batch's first query: no round trip of its own.",
  request: { params: CampaignParamsSchema, body: { ...jsonBody(SendCampaignBodySchema), required: false } },
  responses: {
    200: jsonResponse(CampaignSchema, "The campaign, `scheduled` or `sending`."),
    400: illegal,
    422: templateRefused,
  },
});

const move = (action: "pause" | "resume" | "cancel", summary: string, description: string) =>
  defineRoute("write", {
    method: "post",
    path: `${one}/${action}`,
    tags,
    summary,
    description,
    request: { params: CampaignParamsSchema },
    responses: { 200: jsonResponse(CampaignSchema, "The campaign after the move."), 400: illegal },
  });

export const pauseCampaignRoute = move(
  "pause",
  "Pause a sending campaign",
  "From `sending`: no new batch starts (the one under way finishes, within seconds).",
);
export const resumeCampaignRoute = move(
  "resume",
  "Resume a paused campaign",
  "From `paused`: continues with the recipients still pending; nobody is sent twice. Clears `paused_reason`.",
);
export const cancelCampaignRoute = move(
  "cancel",
  "Cancel a campaign",
  "From `scheduled`, `sending` or `paused`: recipients not yet sent are skipped. Emails already queued still go.",
);

export const testCampaignRoute = defineRoute("write", {
  method: "post",
  path: `${one}/test`,
  tags,
  summary: "Send a test email",
  description:
    "One email to `to` in any status, through the pipeline of POST /v1/emails (403 unverified domain, 429 quota, 422 suppressed), subject prefixed `[Test] `. Variables come from the workspace's customer of that address when there is one; `{{unsubscribe_url}}` is a placeholder link that unsubscribes nobody. Not counted in the stats; no recipient row. A template campaign sends its pinned (else published) version filled as for that customer: 422 `template_variables_invalid` naming each variable without a value.",
  request: { params: CampaignParamsSchema, body: jsonBody(TestCampaignBodySchema) },
  responses: {
    200: jsonResponse(TestCampaignResultSchema, "The test email's id (see GET /v1/emails/{id})."),
  },
});
