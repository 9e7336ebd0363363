import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import { createRouter } from "../../lib/router";
import { verifyTrackingSignature } from "../../mail/tracking/signature";
import { announceEmailEventsSince } from "../email-webhooks/announce";
import { eventIdMark } from "../email-webhooks/fact-events";
import { recordClick, recordOpen } from "./tracking.repo";
import { clickRedirectRoute, openPixelRoute } from "./tracking.routes";

const executionOf = (c: { executionCtx: unknown }) => c.executionCtx as ExecutionContext;

/** A transparent 1x1 GIF. */
const PIXEL = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (c) =>
  c.charCodeAt(0),
);

export const trackingRouter = createRouter()
  .openapi(openPixelRoute, async (c) => {
    const { id, signature } = c.req.valid("param");
    if (await verifyTrackingSignature(c.env.ENCRYPTION_KEY, "open", id, "", signature)) {
      // Counting must never break the image: mail clients show broken images prominently.
      const mark = eventIdMark();
      c.executionCtx.waitUntil(
        recordOpen(c.var.ctx.db, id, c.var.ctx.now, mark)
          .then((wrote) => wrote && announceEmailEventsSince(c.env.DB, c.env, mark, executionOf(c)))
          .catch((e: unknown) => log.warn("tracking.open_failed", describeError(e))),
      );
    }
    return c.body(PIXEL, 200, { "Content-Type": "image/gif", "Cache-Control": "no-store, max-age=0" });
  })
  .openapi(clickRedirectRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { u, s } = c.req.valid("query");
    const target = new URL(u);
    const valid =
      (target.protocol === "https:" || target.protocol === "http:") &&
      (await verifyTrackingSignature(c.env.ENCRYPTION_KEY, "click", id, u, s));
    if (!valid)
      throw new AppError(
        400,
        "invalid_tracking_link",
        "Invalid link",
        "This tracking link was altered; it redirects nowhere.",
      );
    const mark = eventIdMark();
    if (await recordClick(c.var.ctx.db, id, u, c.var.ctx.now, mark))
      announceEmailEventsSince(c.env.DB, c.env, mark, executionOf(c));
    return c.redirect(u, 302);
  });
