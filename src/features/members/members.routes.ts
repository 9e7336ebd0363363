import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { countedListSchema } from "../../lib/pagination";
import { TEAM_LIMIT_RESPONSE } from "../invitations/invitations.routes";
import { InvitationSchema } from "../invitations/invitations.schemas";
import { AddMemberBodySchema, UserSchema } from "../users/users.schemas";

const MemberSchema = z
  .discriminatedUnion("type", [
    UserSchema.extend({ type: z.literal("user") }),
    InvitationSchema.extend({ type: z.literal("invitation") }),
  ])
  .openapi("Member");

const tags = ["Members"];

export const listMembersRoute = defineRoute("read", {
  method: "get",
  path: "/v1/members",
  tags,
  summary: "List members",
  description:
    "The workspace's users (`type: user`, oldest first) followed by its pending invitations (`type: invitation`). Not paginated: `{ data, count }`. Together they are what the team-member limit counts.",
  responses: {
    200: jsonResponse(countedListSchema(MemberSchema, "MemberList"), "Users and pending invitations."),
  },
});

export const addMemberRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/members",
  tags,
  summary: "Add a team member",
  description:
    "Creates the user at once (no email is sent; they sign in with a magic link at /login). The email is compared lowercase: 409 `already_member` for a user of the workspace, 409 `invitation_pending` for a pending invitation. 429 when users plus pending invitations reach the plan's team-member limit (checked atomically). Adding an owner answers 403 `owner_required`: only an owner grants that role, in the dashboard (an API key acts as an admin).",
  request: { body: jsonBody(AddMemberBodySchema) },
  responses: {
    201: jsonResponse(UserSchema, "The new user."),
    409: errorResponse("Already a member, or an invitation is pending for this email."),
    429: TEAM_LIMIT_RESPONSE,
  },
});
