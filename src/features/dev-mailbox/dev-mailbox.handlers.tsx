import { createMiddleware } from "hono/factory";
import { type AppEnv, environmentOf } from "../../env";
import { AppError } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { pageSecurity } from "../sessions/page-security";
import { MailboxPage } from "./dev-mailbox.pages";
import { newestMessages } from "./dev-mailbox.repo";
import { mailboxJsonRoute, mailboxPageRoute } from "./dev-mailbox.routes";

/** Everywhere but development the mailbox does not exist: the same 404 as any unknown path. */
export const developmentOnly = createMiddleware<AppEnv>(async (c, next) => {
  if (environmentOf(c.env) !== "development") {
    throw new AppError(
      404,
      "route_not_found",
      "Not found",
      `No route matches ${c.req.method} ${c.req.path}.`,
    );
  }
  await next();
});

export const devMailboxRouter = createRouter();
devMailboxRouter.use("/_dev/*", developmentOnly);
devMailboxRouter.use("/_dev/mailbox", pageSecurity);

devMailboxRouter
  .openapi(mailboxPageRoute, async (c) => c.html(<MailboxPage messages={await newestMessages(c.env)} />, 200))
  .openapi(mailboxJsonRoute, async (c) => c.json({ data: await newestMessages(c.env) }, 200));
