import { createRouter } from "../../lib/router";
import { API_KEY_ACTOR } from "../users/owner-rule";
import {
  createInvitationRoute,
  listInvitationsRoute,
  resendInvitationRoute,
  revokeInvitationRoute,
} from "./invitations.routes";
import {
  createInvitation,
  listAccountInvitations,
  resendInvitation,
  revokeInvitation,
} from "./invitations.service";

export const invitationsRouter = createRouter()
  .openapi(createInvitationRoute, async (c) => {
    const inviter = { id: c.var.principal?.keyId ?? "", actor: API_KEY_ACTOR };
    return c.json(await createInvitation(c.var.ctx, inviter, c.req.valid("json")), 201);
  })
  .openapi(listInvitationsRoute, async (c) => {
    const { status, limit, offset } = c.req.valid("query");
    return c.json(await listAccountInvitations(c.var.ctx, status, { limit, offset }), 200);
  })
  .openapi(revokeInvitationRoute, async (c) =>
    c.json(await revokeInvitation(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(resendInvitationRoute, async (c) =>
    c.json(await resendInvitation(c.var.ctx, c.req.valid("param").id), 200),
  );
