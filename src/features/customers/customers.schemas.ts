import { z } from "@hono/zod-openapi";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { isValidAddress } from "../../mail/address";

/** Serialized metadata beyond this is refused: it rides along in every customer and webhook payload. */
export const MAX_METADATA_BYTES = 16_384;

const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .refine(isValidAddress, "must be an email address such as ada@example.com")
  .openapi({
    description: "Stored lowercase; unique in the workspace whatever its case.",
    example: "ada@example.com",
  });

const Name = z.string().trim().min(1).max(200).openapi({ example: "Ada Lovelace" });
const Phone = z.string().trim().min(1).max(50).openapi({ example: "+44 20 7946 0000" });

const Metadata = z
  .record(z.string(), z.unknown())
  .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= MAX_METADATA_BYTES, {
    message: `must serialize to at most ${MAX_METADATA_BYTES} bytes of JSON`,
  })
  .openapi({ description: "Free-form JSON object, at most 16 KB serialized.", example: { plan: "pro" } });

export const CustomerSchema = z
  .object({
    id: z.string().openapi({ example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    blocked: z.boolean().openapi({ description: "A blocked customer cannot open tickets." }),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Customer");

export const CustomerListSchema = standardListSchema(CustomerSchema, "CustomerList");

export const CustomerListQuerySchema = offsetQuery(50).extend({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .optional()
    .openapi({ description: "Only the customer with exactly this address, in any case." }),
  q: z.string().trim().min(1).max(200).optional().openapi({
    description: "Only customers whose name or email contains this text, ignoring case (ASCII letters).",
  }),
});

export const CreateCustomerBodySchema = z
  .object({
    email: Email,
    name: Name.nullable().optional(),
    phone: Phone.nullable().optional(),
    blocked: z.boolean().optional().openapi({ description: "Defaults to false." }),
    metadata: Metadata.optional().openapi({ description: "Defaults to {}." }),
  })
  .strict()
  .openapi("CreateCustomerRequest");

export const UpdateCustomerBodySchema = z
  .object({
    email: Email,
    name: Name.nullable().openapi({ description: "`null` clears it." }),
    phone: Phone.nullable().openapi({ description: "`null` clears it." }),
    blocked: z.boolean(),
    metadata: Metadata.openapi({ description: "Replaces the whole object." }),
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateCustomerRequest");

export type CreateCustomerInput = z.infer<typeof CreateCustomerBodySchema>;
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerBodySchema>;

export const CustomerParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
