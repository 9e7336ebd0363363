import { z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateInvitationBodySchema,
  InvitationListQuerySchema,
  InvitationListSchema,
  InvitationParamsSchema,
  InvitationSchema,
} from "./invitations.schemas";

const tags = ["Invitations"];

export const TEAM_LIMIT_RESPONSE = {
  description:
    'The team-member limit of the plan is reached (users plus pending invitations). The body is exactly `{"error":"Team member limit reached"}`, nothing else.',
  content: {
    "application/json": {
      schema: z
        .object({ error: z.string().openapi({ example: "Team member limit reached" }) })
        .strict()
        .openapi("TeamMemberLimitError"),
    },
  },
};

/** What the invitation-mail limits (invitation-limits.ts) answer, for the create and resend routes. */
const MAIL_LIMITS =
  'Invitation emails are the service\'s own mail, outside the email quotas, with limits of their own on every plan: at most 20 per workspace per UTC hour (new and resent together, checked atomically, so concurrent requests never pass it), and per invitation a resend at least 60 seconds after its last email and at most 5 resends. Past one, 429 `limit_exceeded` with `quota` (`invitation_emails_per_hour`, `invitation_resend_cooldown_seconds` or `invitation_resends`), `current`, `limit`, `percentage`, and `Retry-After` when waiting helps (not for the resend cap: revoke and invite again). The workspace name appears in the email only when it holds no link, address or host name (else the email says "a workspace"), cut to 60 characters.';

const mailLimitResponse = {
  description: `A limit of invitation emails. ${MAIL_LIMITS}`,
  headers: z.object({
    "Retry-After": z.string().optional().openapi({ description: "Whole seconds to wait." }),
  }),
  content: { "application/json": { schema: ErrorSchema } },
};

const notPending = {
  409: errorResponse("The invitation is accepted, revoked or expired (`invitation_not_pending`)."),
};

export const createInvitationRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/invitations",
  tags,
  summary: "Invite a team member",
  description:
    "Emails a one-time link, `/invitations/{token}`, valid 7 days, from the deployment's SYSTEM_FROM through the service's own email pipeline. The email shows in GET /v1/emails (status, bounces) with its body redacted; only the token's SHA-256 is stored. Opening the link shows the invitation; its form accepts it, which creates the user with the invited role and signs them in. The email is compared lowercase: 409 `already_member` for a user of the workspace, 409 `invitation_pending` for a pending invitation (resend or revoke it). 429 when users plus pending invitations reach the plan's team-member limit; checked atomically, so concurrent invitations never pass it. Inviting an owner answers 403 `owner_required`: only an owner grants that role, in the dashboard (an API key acts as an admin). " +
    MAIL_LIMITS,
  request: { body: jsonBody(CreateInvitationBodySchema) },
  responses: {
    201: jsonResponse(InvitationSchema, "The invitation; its email is on its way."),
    409: errorResponse("Already a member, or an invitation is pending for this email."),
    429: {
      ...mailLimitResponse,
      description: `The team-member limit (exactly \`{"error":"Team member limit reached"}\`), or a limit of invitation emails (\`limit_exceeded\`). ${MAIL_LIMITS}`,
      content: {
        "application/json": {
          schema: z.union([TEAM_LIMIT_RESPONSE.content["application/json"].schema, ErrorSchema]),
        },
      },
    },
  },
});

export const listInvitationsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/invitations",
  tags,
  summary: "List invitations",
  description:
    "Newest first, standard pagination; filter `status` (pending, accepted, revoked, expired). An invitation is expired once 7 days pass unaccepted.",
  request: { query: InvitationListQuerySchema },
  responses: { 200: jsonResponse(InvitationListSchema, "A page of invitations.") },
});

export const revokeInvitationRoute = defineRoute("admin", {
  method: "delete",
  path: "/v1/invitations/{id}",
  tags,
  summary: "Revoke an invitation",
  description: "Its link stops working at once and its seat is freed. Answers the invitation, `revoked`.",
  request: { params: InvitationParamsSchema },
  responses: { 200: jsonResponse(InvitationSchema, "The revoked invitation."), ...notPending },
});

export const resendInvitationRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/invitations/{id}/resend",
  tags,
  summary: "Resend an invitation",
  description: `Emails a new link with a new 7-day expiry; the previous link stops working. Only a pending invitation can be resent (an expired one: invite again). ${MAIL_LIMITS}`,
  request: { params: InvitationParamsSchema },
  responses: {
    200: jsonResponse(InvitationSchema, "The invitation, with its new expiry."),
    ...notPending,
    429: mailLimitResponse,
  },
});
