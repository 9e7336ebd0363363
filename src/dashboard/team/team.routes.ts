import { dashboardRoute, formBody } from "../routes";
import {
  AvailabilityForm,
  InvitationPath,
  InviteForm,
  RoleForm,
  StatusForm,
  TeamQuery,
  UserPath,
} from "./team-forms";

const AS_API = "then redirects (303) to the Team page";

export const teamRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/team",
  summary: "Team",
  description:
    "The workspace's users (name, email, role, status, last sign-in; oldest first, as GET /v1/users, paginated here by `offset`, 25 a page) and its pending invitations (email, role, who invited, expiry; newest first, as GET /v1/invitations?status=pending, paginated by `invitations_offset`). Everyone signed in sees it; the Invite form and the actions on users and invitations are shown to admins and owners.",
  request: { query: TeamQuery },
});

export const inviteRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/invitations",
  summary: "Invite a person",
  description: `Email and role through POST /v1/invitations' schema and \`createInvitation\`: the invitation email goes out through the service's pipeline (it shows in GET /v1/emails), and the API's answers apply: 409 page when the email is already a member or has a pending invitation, 429 page at the team-member limit or the limit of invitation emails (20 per workspace per hour), 400 page for an invalid email or role. Only an owner may invite an owner (403 page \`owner_required\` for an admin). The invitation's \`invited_by\` is the signed-in user's id (\`usr_...\`); invitations made with an API key carry the key's id (\`key_...\`). ${AS_API}.`,
  request: { body: formBody(InviteForm) },
  role: "admin",
  success: 303,
});

export const resendInvitationRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/invitations/{id}/resend",
  summary: "Resend an invitation",
  description: `\`resendInvitation\`, as POST /v1/invitations/{id}/resend: a new link and a new 7-day expiry, the old link stops working; a 409 page when the invitation is no longer pending, a 429 page (with \`Retry-After\` when waiting helps) within 60 s of its last email, after 5 resends, or past the workspace's 20 invitation emails this hour. ${AS_API}.`,
  request: { params: InvitationPath },
  role: "admin",
  success: 303,
});

export const revokeInvitationRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/invitations/{id}/revoke",
  summary: "Revoke an invitation",
  description: `After the page's confirmation, \`revokeInvitation\`, as DELETE /v1/invitations/{id}: its link stops working and its seat is freed; a 409 page when it is no longer pending. ${AS_API}.`,
  request: { params: InvitationPath },
  role: "admin",
  success: 303,
});

export const changeRoleRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/users/{id}/role",
  summary: "Change a user's role",
  description: `\`updateUser\` with \`role\`, as PATCH /v1/users/{id}: demoting the last active owner is refused with a 409 page giving the reason (\`last_owner\`). Only an owner makes an owner or changes an owner's role (403 page \`owner_required\` for an admin). ${AS_API}.`,
  request: { params: UserPath, body: formBody(RoleForm) },
  role: "admin",
  success: 303,
});

export const changeStatusRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/users/{id}/status",
  summary: "Disable or enable a user",
  description: `\`updateUser\` with \`status\` (\`disabled\` or \`active\`), as PATCH /v1/users/{id}: disabling ends the user's sessions and unused sign-in links at once (the Disable button asks first); disabling the last active owner is refused with a 409 page giving the reason; only an owner disables or enables an owner (403 page \`owner_required\`). ${AS_API}.`,
  request: { params: UserPath, body: formBody(StatusForm) },
  role: "admin",
  success: 303,
});

export const changeAvailabilityRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/team/users/{id}/availability",
  summary: "Set a user away or available",
  description: `\`updateUser\` with \`available\` (\`true\` or \`false\`), as PATCH /v1/users/{id}: an away user is passed over by inbox assignment rules (docs/assignment.md). Everyone signed in may set their own availability; only admins and owners set another person's (a 403 page \`role_required\` for an agent). ${AS_API}.`,
  request: { params: UserPath, body: formBody(AvailabilityForm) },
  success: 303,
});
