import { z } from "@hono/zod-openapi";
import { USER_ROLES, USER_STATUSES } from "../../db/schema";
import { countedListSchema } from "../../lib/pagination";
import { emailAddress } from "../../mail/address-schema";

export const PersonEmail = emailAddress(
  "Stored lowercase: one person per email in a workspace, whatever its case.",
);

export const Role = z.enum(USER_ROLES).openapi({ description: "owner, admin or agent.", example: "agent" });

const Name = z.string().trim().min(1).max(200).openapi({ example: "Ada Lovelace" });

/** The most open tickets a capacity may name: far above any person's day, and a bounded number. */
export const MAX_CAPACITY = 10_000;

const Available = z.boolean().openapi({
  description:
    "False while the person is away: inbox assignment rules pass them over (tickets already theirs stay theirs, except a resolved or closed one a customer reopens). See docs/assignment.md.",
  example: true,
});

const Capacity = z
  .number()
  .int()
  .min(0)
  .max(MAX_CAPACITY)
  .nullable()
  .openapi({
    description: `The most open tickets (status open, pending or on_hold) assignment rules give the person; a person at it is passed over, and 0 means never. \`null\`: no limit. Manual assignment ignores it. At most ${MAX_CAPACITY}.`,
    example: 20,
  });

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    name: z.string().nullable(),
    role: Role,
    status: z.enum(USER_STATUSES).openapi({ description: "A disabled user cannot sign in." }),
    available: Available,
    capacity: Capacity,
    last_login_at: z.string().nullable(),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    updated_at: z.string(),
  })
  .openapi("User");

export const UserListSchema = countedListSchema(UserSchema, "UserList");

export const UpdateUserBodySchema = z
  .object({
    name: Name.nullable(),
    role: Role,
    status: z.enum(USER_STATUSES),
    available: Available,
    capacity: Capacity,
  })
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
