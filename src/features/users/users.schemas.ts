import { z } from "@hono/zod-openapi";
import { USER_ROLES, USER_STATUSES } from "../../db/schema";
import { countedListSchema } from "../../lib/pagination";
import { emailAddress } from "../../mail/address-schema";

export const PersonEmail = emailAddress(
  "Stored lowercase: one person per email in a workspace, whatever its case.",
);

export const Role = z.enum(USER_ROLES).openapi({ description: "owner, admin or agent.", example: "agent" });

const Name = z.string().trim().min(1).max(200).openapi({ example: "Ada Lovelace" });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    name: z.string().nullable(),
    role: Role,
    status: z.enum(USER_STATUSES).openapi({ description: "A disabled user cannot sign in." }),
    last_login_at: z.string().nullable(),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    updated_at: z.string(),
  })
  .openapi("User");

export const UserListSchema = countedListSchema(UserSchema, "UserList");

export const UpdateUserBodySchema = z
  .object({ name: Name.nullable(), role: Role, status: z.enum(USER_STATUSES) })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateUserRequest");

export const AddMemberBodySchema = z
  .object({ email: PersonEmail, name: Name.optional(), role: Role })
  .strict()
  .openapi("AddMemberRequest");

export const UserParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "usr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const DeletedUserSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi("DeletedUser");

export type UpdateUserInput = z.infer<typeof UpdateUserBodySchema>;
export type AddMemberInput = z.infer<typeof AddMemberBodySchema>;
