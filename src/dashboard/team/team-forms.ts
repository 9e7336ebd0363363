import { z } from "@hono/zod-openapi";

const offset = (description: string) =>
  z.coerce.number().int().min(0).default(0).openapi({ description, example: 0 });

export const TeamQuery = z.object({
  offset: offset("Users to skip."),
  invitations_offset: offset("Pending invitations to skip."),
  done: z.string().max(40).optional().openapi({ description: "Which confirmation to show." }),
});

const idParam = (example: string) =>
  z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example }) });

export const UserPath = idParam("usr_01JD3Z6X8Y9ABCDEFGHJKMNPQR");
export const InvitationPath = idParam("inv_01JD3Z6X8Y9ABCDEFGHJKMNPQR");

/** Strings only: the values then go through the API's own body schemas. */
export const InviteForm = z.object({ email: z.string().max(1000), role: z.string().max(20) });
export const RoleForm = z.object({ role: z.string().max(20) });
export const StatusForm = z.object({ status: z.string().max(20) });
export const AvailabilityForm = z.object({ available: z.enum(["true", "false"]) });
