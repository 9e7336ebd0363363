import { z } from "@hono/zod-openapi";
import { singleLine } from "../../lib/input";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { emailAddress } from "../../mail/address-schema";
import { CustomerName, CustomerSchema } from "../customers/customers.schemas";

/** At most this many members per POST /v1/contact-groups/{id}/members: one D1 batch. */
export const MAX_MEMBERS_PER_CALL = 1000;

const GROUP_ID_EXAMPLE = "grp_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

const Name = singleLine(100).openapi({
  description: "Unique in the workspace whatever its case.",
  example: "Newsletter",
});
const Description = z
  .string()
  .trim()
  .max(1000)
  .openapi({ example: "Everyone who asked for the monthly news." });

export const ContactGroupSchema = z
  .object({
    id: z.string().openapi({ example: GROUP_ID_EXAMPLE }),
    name: z.string().openapi({ example: "Newsletter" }),
    description: z.string().nullable(),
    member_count: z.number().int().openapi({ description: "How many customers the group holds." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ContactGroup");

export const ContactGroupListSchema = standardListSchema(ContactGroupSchema, "ContactGroupList");
export const ContactGroupListQuerySchema = offsetQuery(50);

export const CreateContactGroupBodySchema = z
  .object({
    name: Name,
    description: Description.nullable().optional().openapi({ description: "Defaults to null." }),
  })
  .strict()
  .openapi("CreateContactGroupRequest");

export const UpdateContactGroupBodySchema = z
  .object({ name: Name, description: Description.nullable().openapi({ description: "`null` clears it." }) })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateContactGroupRequest");

export type CreateContactGroupInput = z.infer<typeof CreateContactGroupBodySchema>;
export type UpdateContactGroupInput = z.infer<typeof UpdateContactGroupBodySchema>;

export const ContactGroupParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: GROUP_ID_EXAMPLE }),
});

export const ContactGroupMemberParamsSchema = ContactGroupParamsSchema.extend({
  customer_id: z
    .string()
    .openapi({ param: { name: "customer_id", in: "path" }, example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const ContactGroupMemberSchema = CustomerSchema.extend({
  added_at: z.string().openapi({ description: "When the customer joined the group." }),
}).openapi("ContactGroupMember");

export const ContactGroupMemberListSchema = standardListSchema(
  ContactGroupMemberSchema,
  "ContactGroupMemberList",
);
export const ContactGroupMemberListQuerySchema = offsetQuery(50);

export const MemberByEmail = z
  .object({
    email: emailAddress("The customer with this address, created when the workspace has none."),
    name: CustomerName.nullable()
      .optional()
      .openapi({ description: "Used only when the customer is created; never overwrites a name." }),
  })
  .strict()
  .openapi("ContactGroupMemberByEmail");

const MemberById = z
  .object({ customer_id: z.string().min(1).openapi({ example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }) })
  .strict()
  .openapi("ContactGroupMemberById");

export const AddContactGroupMembersBodySchema = z
  .object({
    members: z
      .array(z.union([MemberByEmail, MemberById]))
      .min(1)
      .max(MAX_MEMBERS_PER_CALL)
      .openapi({ description: `1 to ${MAX_MEMBERS_PER_CALL} members.` }),
  })
  .strict()
  .openapi("AddContactGroupMembersRequest");

export type AddContactGroupMembersInput = z.infer<typeof AddContactGroupMembersBodySchema>;

export const AddContactGroupMembersResultSchema = z
  .object({
    added: z.number().int().openapi({ description: "Customers that joined the group." }),
    skipped: z
      .number()
      .int()
      .openapi({ description: "Entries that were already members, or repeated a member of the same call." }),
  })
  .openapi("AddContactGroupMembersResult");
