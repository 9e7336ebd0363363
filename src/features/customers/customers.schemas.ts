import { z } from "@hono/zod-openapi";
import { Metadata, singleLine } from "../../lib/input";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { emailAddress } from "../../mail/address-schema";

const Email = emailAddress("Stored lowercase; unique in the workspace whatever its case.");

/** Also the display name of the emails a customer is sent, hence one line. */
export const CustomerName = singleLine(200).openapi({ example: "Ada Lovelace" });
const Phone = singleLine(50).openapi({ example: "+44 20 7946 0000" });

export const CustomerSchema = z
  .object({
    id: z.string().openapi({ example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    blocked: z.boolean().openapi({ description: "A blocked customer cannot open tickets." }),
    metadata: z.record(z.string(), z.unknown()),
    unsubscribed: z
      .boolean()
      .openapi({ description: "An unsubscribed customer is sent no campaign emails." }),
    unsubscribed_at: z
      .string()
      .nullable()
      .openapi({ description: "When the customer unsubscribed; null while subscribed." }),
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
    name: CustomerName.nullable().optional(),
    phone: Phone.nullable().optional(),
    blocked: z.boolean().optional().openapi({ description: "Defaults to false." }),
    metadata: Metadata.optional().openapi({ description: "Defaults to {}." }),
  })
  .strict()
  .openapi("CreateCustomerRequest");

export const UpdateCustomerBodySchema = z
  .object({
    email: Email,
    name: CustomerName.nullable().openapi({ description: "`null` clears it." }),
    phone: Phone.nullable().openapi({ description: "`null` clears it." }),
    blocked: z.boolean(),
    metadata: Metadata.openapi({ description: "Replaces the whole object." }),
    unsubscribed: z.boolean().openapi({
      description:
        "`true` unsubscribes the customer from campaigns (recorded with method `api`; `unsubscribed_at` keeps the first time); `false` subscribes them again and clears `unsubscribed_at`.",
    }),
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
