import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { idPattern } from "../../lib/ids";
import { enterLinkWorkspace } from "../../lib/request-context-middleware";
import { createRouter, mount } from "../../lib/router";
import { inWorkspace } from "../../lib/workspace-link";
import { PublicMessagePage } from "../../ui/message-page";
import { RETRY_AFTER_SECONDS, TOO_MANY_POSTS } from "../../ui/public-error-page";
import { addMessage } from "../messages/messages.service";
import { formOrigin, pageSecurity } from "../sessions/page-security";
import { admitAttempt, clientIp } from "../sessions/rate-limit";
import { contactRouter } from "./contact.handlers";
import { TicketNotFoundPage } from "./portal.components";
import { actingFor, FIELD_HELP, formValues, normalizeLineBreaks, postedData } from "./portal.forms";
import { REPLY_POSTS } from "./portal.limits";
import { accountOfSharedTicket, findPublicTicket, findReplyTarget } from "./portal.repo";
import { publicTicketRoute, replyRoute } from "./portal.routes";
import { TicketPage } from "./ticket.page";

const SHARED_ID = new RegExp(idPattern("shr"));

/**
 * Enters the workspace of the ticket a page's `shr_` id names: the one the link names, else the
 * one holding the ticket. Null for a malformed id (no database trip) or a ticket found nowhere.
 */
async function enterTicketWorkspace(c: Context<AppEnv>, sharedUuid: string) {
  if (!SHARED_ID.test(sharedUuid)) return null;
  return enterLinkWorkspace(c, (db) => accountOfSharedTicket(db, sharedUuid));
}

/** The ticket page, the reply form's action naming the ticket's workspace. */
const ticketPath = (sharedUuid: string, accountId: string) =>
  inWorkspace(`/portal/tickets/${sharedUuid}`, accountId);

/** A refused reply: the ticket page again, the text kept to fix and resend. */
async function refusedReply(c: Context<AppEnv>, posted: unknown) {
  const sharedUuid = c.req.param("shared_uuid") ?? "";
  const ctx = await enterTicketWorkspace(c, sharedUuid);
  const ticket = ctx ? await findPublicTicket(ctx.db, ctx.accountId, sharedUuid) : null;
  if (!ctx || !ticket) return c.html(<TicketNotFoundPage />, 404);
  const reply = { message: formValues(posted).message ?? "", error: FIELD_HELP.message };
  const page = <TicketPage ticket={ticket} sharedUuid={sharedUuid} accountId={ctx.accountId} reply={reply} />;
  return c.html(page, 400);
}

/**
 * The customer's pages: no session, so forms are protected by the origin check; the headers allow
 * no script, only this origin's stylesheet, forms posting here, no Referer carrying the capability
 * URL elsewhere, nothing cached or indexed.
 */
export const portalRouter = createRouter();
portalRouter.use("/portal/*", pageSecurity, formOrigin);

portalRouter
  .openapi(publicTicketRoute, async (c) => {
    const { shared_uuid: sharedUuid } = c.req.valid("param");
    const ctx = await enterTicketWorkspace(c, sharedUuid);
    const ticket = ctx ? await findPublicTicket(ctx.db, ctx.accountId, sharedUuid) : null;
    if (!ctx || !ticket) return c.html(<TicketNotFoundPage />, 404);
    // A merged ticket's conversation lives on in the survivor: its link leads there.
    if (ticket.mergedIntoShared) return c.redirect(ticketPath(ticket.mergedIntoShared, ctx.accountId), 302);
    return c.html(<TicketPage ticket={ticket} sharedUuid={sharedUuid} accountId={ctx.accountId} />, 200);
  })
  .openapi(
    replyRoute,
    async (c) => {
      const { shared_uuid: sharedUuid } = c.req.valid("param");
      const form = c.req.valid("form");
      const ctx = await enterTicketWorkspace(c, sharedUuid);
      const target = ctx ? await findReplyTarget(ctx.db, ctx.accountId, sharedUuid) : null;
      if (!ctx || !target) return c.html(<TicketNotFoundPage />, 404);
      const ticketPage = ticketPath(target.sharedUuid, ctx.accountId);
      if (form.website) return c.redirect(ticketPage, 303);
      const attempt = { ip: clientIp(c.req.header("CF-Connecting-IP")), email: target.customerEmail };
      if (!(await admitAttempt(ctx.db, REPLY_POSTS, attempt, ctx.now))) {
        c.header("Retry-After", RETRY_AFTER_SECONDS);
        return c.html(<PublicMessagePage title="Slow down" text={TOO_MANY_POSTS} />, 429);
      }
      // A blocked customer's reply is dropped, as their mail is; the answer does not change.
      if (target.customerBlocked) return c.redirect(ticketPage, 303);
      const message = await addMessage(actingFor(ctx, target.accountId), target.ticketId, {
        type: "customer",
        body_text: normalizeLineBreaks(form.message),
        draft: false,
      });
      return c.redirect(`${ticketPage}#${message.id}`, 303);
    },
    (result, c) => (result.success ? undefined : refusedReply(c, postedData(result))),
  );

mount(portalRouter, "/", contactRouter);
