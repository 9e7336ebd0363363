import { z } from "@hono/zod-openapi";
import { UNSUBSCRIBE_METHODS } from "../../db/schema";
import { namedListSchema, offsetQuery } from "../../lib/pagination";

export const UnsubscribeTokenParams = z.object({
  token: z.string().openapi({
    param: { name: "token", in: "path" },
    description: "The link's token: the customer and the campaign, signed by the service.",
  }),
});

/** The page's button says so; any other post is a mail client's one-click (RFC 8058). */
export const PAGE_SOURCE = "page";

export const UnsubscribeFormSchema = z.object({
  "List-Unsubscribe": z
    .string()
    .optional()
    .openapi({ description: "`One-Click` in a mail client's RFC 8058 post.", example: "One-Click" }),
  source: z
    .string()
    .optional()
    .openapi({ description: "`page` when the confirmation page's button posts (method `link`)." }),
});

export const UnsubscribedSchema = z
  .object({
    customer_id: z.string().openapi({ example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    campaign_id: z
      .string()
      .nullable()
      .openapi({ description: "The campaign whose link was used; null for `api`." }),
    method: z.enum(UNSUBSCRIBE_METHODS).openapi({
      description:
        "`one_click`: the mail client's List-Unsubscribe post; `link`: the button of the link's page; `api`: PATCH /v1/customers/{id}.",
    }),
    unsubscribed_at: z.string(),
  })
  .openapi("Unsubscribed");

export const UnsubscribedListSchema = namedListSchema("unsubscribed", UnsubscribedSchema, "UnsubscribedList");
export const UnsubscribedQuerySchema = offsetQuery(50);
