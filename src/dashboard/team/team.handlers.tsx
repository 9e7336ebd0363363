import { hasRole } from "../../auth/roles";
import { CreateInvitationBodySchema } from "../../features/invitations/invitations.schemas";
import {
  createInvitation,
  listAccountInvitations,
  resendInvitation,
  revokeInvitation,
} from "../../features/invitations/invitations.service";
import { toUser } from "../../features/users/users.dto";
import { countUsers, usersByIds, usersPage } from "../../features/users/users.repo";
import { UpdateUserBodySchema } from "../../features/users/users.schemas";
import { updateUser } from "../../features/users/users.service";
import { forbidden } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { asApiBody } from "../inboxes/form-problem";
import { renderPage, sessionOf } from "../page";
import { TEAM_PAGE_SIZE, TeamPage } from "./team.page";
import {
  changeAvailabilityRoute,
  changeRoleRoute,
  changeStatusRoute,
  inviteRoute,
  resendInvitationRoute,
  revokeInvitationRoute,
  teamRoute,
} from "./team.routes";

const toTeam = (done: string) => `/dashboard/team?done=${done}`;

export const teamRouter = createRouter()
  .openapi(teamRoute, async (c) => {
    const { offset, invitations_offset, done } = c.req.valid("query");
    const session = sessionOf(c);
    const { db, accountId } = c.var.ctx;
    const page = { limit: TEAM_PAGE_SIZE, offset: invitations_offset };
    // One page of users, never the whole team: a workspace may have thousands.
    const [users, usersTotal, invitations] = await Promise.all([
      usersPage(db, accountId, TEAM_PAGE_SIZE, offset).then((rows) => rows.map(toUser)),
      countUsers(db, accountId),
      listAccountInvitations(c.var.ctx, "pending", page),
    ]);
    const inviters = invitations.data.map((invitation) => invitation.invited_by);
    const emails = new Map((await usersByIds(db, accountId, inviters)).map((user) => [user.id, user.email]));
    return renderPage(
      c,
      { title: "Team", nav: "Team" },
      <TeamPage
        users={users}
        usersTotal={usersTotal}
        offset={offset}
        invitations={invitations.data}
        invitationsTotal={invitations.pagination.total}
        invitationsOffset={invitations_offset}
        emails={emails}
        me={session.userId}
        canManage={hasRole(session, "admin")}
        csrfToken={c.var.csrfToken}
        done={done}
      />,
    );
  })
  .openapi(inviteRoute, async (c) => {
    const input = asApiBody(CreateInvitationBodySchema, c.req.valid("form"));
    // From the dashboard the inviter is the signed-in person, not an API key.
    const session = sessionOf(c);
    await createInvitation(c.var.ctx, { id: session.userId, actor: session.role }, input);
    return c.redirect(toTeam("invited"), 303);
  })
  .openapi(resendInvitationRoute, async (c) => {
    await resendInvitation(c.var.ctx, c.req.valid("param").id);
    return c.redirect(toTeam("resent"), 303);
  })
  .openapi(revokeInvitationRoute, async (c) => {
    await revokeInvitation(c.var.ctx, c.req.valid("param").id);
    return c.redirect(toTeam("revoked"), 303);
  })
  .openapi(changeRoleRoute, async (c) => {
    const input = asApiBody(UpdateUserBodySchema, c.req.valid("form"));
    await updateUser(c.var.ctx, sessionOf(c).role, c.req.valid("param").id, input);
    return c.redirect(toTeam("role_changed"), 303);
  })
  .openapi(changeStatusRoute, async (c) => {
    const input = asApiBody(UpdateUserBodySchema, c.req.valid("form"));
    await updateUser(c.var.ctx, sessionOf(c).role, c.req.valid("param").id, input);
    return c.redirect(toTeam(input.status === "disabled" ? "disabled" : "enabled"), 303);
  })
  .openapi(changeAvailabilityRoute, async (c) => {
    const session = sessionOf(c);
    const { id } = c.req.valid("param");
    // An agent sets themself away; only admins and owners set someone else.
    if (id !== session.userId && !hasRole(session, "admin"))
      throw forbidden("role_required", "Only admins and owners set another person's availability.");
    const available = c.req.valid("form").available === "true";
    await updateUser(c.var.ctx, session.role, id, { available });
    return c.redirect(toTeam(available ? "available" : "away"), 303);
  });
