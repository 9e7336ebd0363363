import { directoryDb } from "../../db/directory/client";
import { describeError, log } from "../../lib/logger";
import { entering, reaching } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { isValidAddress } from "../../mail/address";
import { ConfirmSignInPage, LinkSentPage, LoginPage, MessagePage } from "./login.pages";
import { linkPageRoute, loginPageRoute, logoutRoute, requestLinkRoute, useLinkRoute } from "./login.routes";
import { sendSignInLinks, signInWithLink, usableLink } from "./login.service";
import { formOrigin, pageSecurity } from "./page-security";
import { admitSignInAttempt, clientIp } from "./rate-limit";
import { endSession, startSession, TOKEN_SHAPE, withSession } from "./session";

const TOO_MANY = "Too many sign-in attempts. Wait 15 minutes and try again.";
const UNUSABLE = "This sign-in link was used already, has expired, or is not valid. Ask for a new one.";

export const loginRouter = createRouter();
loginRouter.use("/login", pageSecurity, formOrigin, withSession);
loginRouter.use("/login/*", pageSecurity, formOrigin);
loginRouter.use("/logout", pageSecurity, formOrigin);

loginRouter
  .openapi(loginPageRoute, (c) => c.html(<LoginPage session={c.var.session} />, 200))
  .openapi(requestLinkRoute, async (c) => {
    const email = (c.req.valid("form").email ?? "").trim().toLowerCase();
    if (!isValidAddress(email) || email.length > 254) {
      return c.html(<LoginPage error="Enter an email address such as ada@example.com." />, 400);
    }
    const ctx = c.var.ctx;
    const ip = clientIp(c.req.header("CF-Connecting-IP"));
    if (!(await admitSignInAttempt(ctx.db, { email, ip }, ctx.now))) {
      return c.html(<MessagePage title="Too many attempts" text={TOO_MANY} />, 429);
    }
    const login = { directory: directoryDb(c.env), workspaceDb: reaching(c), env: ctx.env, now: ctx.now };
    ctx.defer(
      sendSignInLinks(login, email).catch((error: unknown) =>
        log.error("login.link_failed", describeError(error)),
      ),
    );
    return c.html(<LinkSentPage />, 200);
  })
  .openapi(linkPageRoute, async (c) => {
    const { token } = c.req.valid("param");
    const link = TOKEN_SHAPE.test(token)
      ? await usableLink(directoryDb(c.env), entering(c), token, c.var.ctx.now)
      : null;
    if (!link) return c.html(<MessagePage title="Link not valid" text={UNUSABLE} />, 410);
    return c.html(
      <ConfirmSignInPage workspace={link.workspace} email={link.email} action={`/login/${token}`} />,
      200,
    );
  })
  .openapi(useLinkRoute, async (c) => {
    const { token } = c.req.valid("param");
    const ctx = c.var.ctx;
    if (!(await admitSignInAttempt(ctx.db, { ip: clientIp(c.req.header("CF-Connecting-IP")) }, ctx.now))) {
      return c.html(<MessagePage title="Too many attempts" text={TOO_MANY} />, 429);
    }
    const session = TOKEN_SHAPE.test(token)
      ? await signInWithLink(directoryDb(c.env), entering(c), token, ctx.now)
      : null;
    if (!session) return c.html(<MessagePage title="Link not valid" text={UNUSABLE} />, 410);
    startSession(c, session);
    return c.redirect("/dashboard", 303);
  })
  .openapi(logoutRoute, async (c) => {
    await endSession(c);
    return c.redirect("/login", 303);
  });
