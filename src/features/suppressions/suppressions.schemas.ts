import { z } from "@hono/zod-openapi";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

export const SuppressionSchema = z
  .object({
    id: z.string().openapi({ example: "sup_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string(),
    reason: z.enum(["hard_bounce", "complaint", "soft_bounces", "manual"]),
    source_email_id: z.string().nullable().openapi({ description: "The email whose bounce caused it." }),
    detail: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("Suppression");

export const SuppressionListSchema = standardListSchema(SuppressionSchema, "SuppressionList");

export const SuppressionQuerySchema = offsetQuery(50).extend({
  email: z.string().optional().openapi({ description: "Only this address." }),
});

export const CreateSuppressionBodySchema = z
  .object({ email: z.string().min(3).max(320), detail: z.string().max(500).optional() })
  .strict()
  .openapi("CreateSuppressionRequest");

export const SuppressionParamsSchema = z.object({
  email: z.string().openapi({ param: { name: "email", in: "path" }, example: "ada@example.com" }),
});
