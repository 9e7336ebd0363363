import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  DeletedUserSchema,
  UpdateUserBodySchema,
  UserListSchema,
  UserParamsSchema,
  UserSchema,
} from "./users.schemas";

const tags = ["Users"];
const ownership = {
  403: errorResponse(
    "The key lacks the admin permission, the workspace is suspended, or the change touches ownership (`owner_required`).",
  ),
  409: errorResponse("The workspace's last active owner cannot lose that role (`last_owner`)."),
};
const OWNER_RULE =
  "Only an owner grants or removes the owner role, or disables, enables or removes an owner: an API key acts as an admin (any admin can create one), so such a change answers 403 `owner_required` here and is made by an owner in the dashboard.";

export const listUsersRoute = defineRoute("read", {
  method: "get",
  path: "/v1/users",
  tags,
  summary: "List users",
  description:
    "Every person of the workspace (active and disabled), oldest first. Not paginated: `{ data, count }`.",
  responses: { 200: jsonResponse(UserListSchema, "The workspace's users.") },
});

export const getUserRoute = defineRoute("read", {
  method: "get",
  path: "/v1/users/{id}",
  tags,
  summary: "Get a user",
  request: { params: UserParamsSchema },
  responses: { 200: jsonResponse(UserSchema, "The user.") },
});

export const updateUserRoute = defineRoute("admin", {
  method: "patch",
  path: "/v1/users/{id}",
  tags,
  summary: "Update a user",
  description: `Changes \`name\`, \`role\`, \`status\`, \`available\` or \`capacity\`. \`available: false\` sets the person away and \`capacity\` caps the open tickets assignment rules give them (docs/assignment.md); an admin key may set either for anyone, owners included (neither is an ownership change), and every signed-in person sets their own availability on the dashboard's Team page. Disabling a user ends their dashboard sessions and unused sign-in links at once; a disabled user cannot sign in. Demoting or disabling the last active owner answers 409 \`last_owner\`. ${OWNER_RULE}`,
  request: { params: UserParamsSchema, body: jsonBody(UpdateUserBodySchema) },
  responses: { 200: jsonResponse(UserSchema, "The updated user."), ...ownership },
});

export const deleteUserRoute = defineRoute("admin", {
  method: "delete",
  path: "/v1/users/{id}",
  tags,
  summary: "Remove a user",
  description: `Removes the user from the workspace: their sessions end, and tickets assigned to them become unassigned in the same transaction (no \`ticket.updated\` event: the ticket was not edited). Frees a team-member seat. The last active owner cannot be removed (409 \`last_owner\`). ${OWNER_RULE}`,
  request: { params: UserParamsSchema },
  responses: { 200: jsonResponse(DeletedUserSchema, "The user was removed."), ...ownership },
});
