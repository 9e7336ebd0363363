import { directoryDb } from "../../db/directory/client";
import { entering } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { MessagePage } from "../sessions/login.pages";
import { formOrigin, pageSecurity } from "../sessions/page-security";
import { admitSignInAttempt, clientIp } from "../sessions/rate-limit";
import { startSession, TOKEN_SHAPE } from "../sessions/session";
import { acceptInvitation, invitationForToken } from "./accept";
import { acceptInvitationRoute, invitationPageRoute } from "./invitation-page.routes";
import { InvitationPage } from "./invitations.pages";

const UNUSABLE = "This invitation was accepted or revoked, has expired, or is not valid. Ask for a new one.";

export const invitationPageRouter = createRouter();
invitationPageRouter.use("/invitations/*", pageSecurity, formOrigin);

invitationPageRouter
  .openapi(invitationPageRoute, async (c) => {
    const { token } = c.req.valid("param");
    const invitation = TOKEN_SHAPE.test(token)
      ? await invitationForToken(directoryDb(c.env), entering(c), token, c.var.ctx.now)
      : null;
    if (!invitation) return c.html(<MessagePage title="Invitation not valid" text={UNUSABLE} />, 410);
    return c.html(<InvitationPage {...invitation} action={`/invitations/${token}`} />, 200);
  })
  .openapi(acceptInvitationRoute, async (c) => {
    const { token } = c.req.valid("param");
    const ctx = c.var.ctx;
    if (!(await admitSignInAttempt(ctx.db, { ip: clientIp(c.req.header("CF-Connecting-IP")) }, ctx.now))) {
      return c.html(<MessagePage title="Too many attempts" text="Wait 15 minutes and try again." />, 429);
    }
    const name = c.req.valid("form").name?.trim().slice(0, 200) || null;
    const outcome = TOKEN_SHAPE.test(token)
      ? await acceptInvitation(directoryDb(c.env), entering(c), token, name, ctx.now)
      : null;
    if (outcome?.kind === "accepted") {
      startSession(c, outcome.session);
      return c.redirect("/dashboard", 303);
    }
    if (outcome?.kind === "already_member") {
      const text = "This email is already a user of the workspace: sign in with a link instead.";
      return c.html(<MessagePage title="Already a member" text={text} />, 409);
    }
    return c.html(<MessagePage title="Invitation not valid" text={UNUSABLE} />, 410);
  });
