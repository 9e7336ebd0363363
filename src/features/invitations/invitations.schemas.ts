import { z } from "@hono/zod-openapi";
import { INVITATION_STATES } from "../../db/schema";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { PersonEmail, Role } from "../users/users.schemas";

const Status = z
  .enum(INVITATION_STATES)
  .openapi({ description: "pending, accepted, revoked or expired (7 days after it was sent)." });

export const InvitationSchema = z
  .object({
    id: z.string().openapi({ example: "inv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    email: z.string().openapi({ example: "grace@example.com" }),
    role: Role,
    status: Status,
    expires_at: z.string().openapi({ example: "2026-11-29T10:00:00.000Z" }),
    invited_by: z
      .string()
      .openapi({ description: "The API key (`key_...`) or user (`usr_...`) that invited." }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("Invitation");

export const InvitationListSchema = standardListSchema(InvitationSchema, "InvitationList");

export const InvitationListQuerySchema = offsetQuery(50).extend({ status: Status.optional() });

export const CreateInvitationBodySchema = z
  .object({ email: PersonEmail, role: Role })
  .strict()
  .openapi("CreateInvitationRequest");

export const InvitationParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "inv_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export type CreateInvitationInput = z.infer<typeof CreateInvitationBodySchema>;
