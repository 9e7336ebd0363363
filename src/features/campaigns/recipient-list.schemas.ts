import { z } from "@hono/zod-openapi";
import { CAMPAIGN_RECIPIENT_STATES } from "../../db/schema";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

export const CampaignRecipientSchema = z
  .object({
    customer_id: z.string().openapi({ example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ description: "The customer's address when the send began." }),
    state: z.enum(CAMPAIGN_RECIPIENT_STATES),
    email_id: z.string().nullable().openapi({
      description: "The email it became (see GET /v1/emails/{id}); null until a batch takes it.",
    }),
    detail: z.string().nullable().openapi({
      description:
        "Why it was not sent: `unsubscribed` or `cancelled` (skipped), `suppressed`, `failed` or `bounced`; null otherwise.",
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("CampaignRecipient");

export const CampaignRecipientListSchema = standardListSchema(
  CampaignRecipientSchema,
  "CampaignRecipientList",
);

export const CampaignRecipientListQuerySchema = offsetQuery(50).extend({
  state: z
    .enum(CAMPAIGN_RECIPIENT_STATES)
    .optional()
    .openapi({ description: "Only recipients in this state." }),
});
