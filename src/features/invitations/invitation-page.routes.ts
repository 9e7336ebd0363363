import { z } from "@hono/zod-openapi";
import { formBody, htmlPage, page, TokenParamsSchema } from "../sessions/login.routes";

const tags = ["Invitations"];

export const AcceptFormSchema = z.object({ name: z.string().max(1000).optional() });

export const invitationPageRoute = page({
  method: "get",
  path: "/invitations/{token}",
  tags,
  summary: "Invitation page",
  description:
    "The link of an invitation email: shows the workspace, email and role with an Accept button. Opening it (a mail scanner's prefetch too) changes nothing. An accepted, revoked, expired or unknown invitation answers 410.",
  request: { params: TokenParamsSchema },
  responses: { 200: htmlPage("The invitation."), 410: htmlPage("The invitation cannot be accepted.") },
});

export const acceptInvitationRoute = page({
  method: "post",
  path: "/invitations/{token}",
  tags,
  summary: "Accept an invitation",
  description:
    "Form post (same origin only), optional `name`. Creates the user with the invited role, marks the invitation accepted (a token works once) and starts a dashboard session (the cookie as for /login/{token}); redirects (303) to /dashboard. 409 when the email became a user meanwhile; counts as a sign-in attempt of the IP (429 page past the limit).",
  request: { params: TokenParamsSchema, body: formBody(AcceptFormSchema) },
  responses: {
    303: { description: "Accepted and signed in." },
    403: htmlPage("The form was posted from another origin."),
    409: htmlPage("The email is already a user of the workspace."),
    410: htmlPage("The invitation is accepted, revoked, expired or unknown."),
    429: htmlPage("Too many sign-in attempts from this IP."),
  },
});
