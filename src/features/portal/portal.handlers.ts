import { idPattern } from "../../lib/ids";
import { createRouter } from "../../lib/router";
import { renderNotFoundPage, renderTicketPage } from "./portal.render";
import { findPublicTicket } from "./portal.repo";
import { publicTicketRoute } from "./portal.routes";

const SHARED_ID = new RegExp(idPattern("shr"));

/**
 * The page shows customer data to whoever holds the link: no scripts or foreign resources, no
 * Referer carrying the capability URL elsewhere, nothing kept by caches or search engines.
 */
const PAGE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
};

export const portalRouter = createRouter().openapi(publicTicketRoute, async (c) => {
  const { shared_uuid: sharedUuid } = c.req.valid("param");
  // A malformed id cannot match a row: answer without a database trip.
  const ticket = SHARED_ID.test(sharedUuid) ? await findPublicTicket(c.var.ctx.db, sharedUuid) : null;
  if (!ticket) return c.html(renderNotFoundPage(), 404, PAGE_HEADERS);
  return c.html(renderTicketPage(ticket), 200, PAGE_HEADERS);
});
