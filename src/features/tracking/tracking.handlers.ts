import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import type { RequestContext } from "../../lib/request-context";
import { enterLinkWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { WORKSPACE_PARAM } from "../../lib/workspace-link";
import { verifyTrackingSignature } from "../../mail/tracking/signature";
import { announceEmailEventsSince } from "../email-webhooks/announce";
import { eventIdMark } from "../email-webhooks/fact-events";
import { accountOfEmail, recordClick, recordOpen } from "./tracking.repo";
import { clickRedirectRoute, openPixelRoute } from "./tracking.routes";

const executionOf = (c: { executionCtx: unknown }) => c.executionCtx as ExecutionContext;

/** A transparent 1x1 GIF. */
const PIXEL = Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (c) =>
  c.charCodeAt(0),
);

/**
 * Enters the workspace of a tracked email: the one its link names, when the email is that
 * workspace's (one read in its shard), else the one holding the email (every shard asked, for
 * links made before links named their workspace). Null when neither holds it.
 */
async function enterEmailWorkspace(c: Context<AppEnv>, emailId: string): Promise<RequestContext | null> {
  const ctx = await enterLinkWorkspace(c, (db) => accountOfEmail(db, emailId));
  if (!ctx || c.req.query(WORKSPACE_PARAM) === undefined) return ctx;
  return (await accountOfEmail(ctx.db, emailId)) === ctx.accountId ? ctx : null;
}

/** Counts an open of a tracked email, in its workspace's shard, and announces its webhook event. */
async function countOpen(c: Context<AppEnv>, emailId: string) {
  const ctx = await enterEmailWorkspace(c, emailId);
  if (!ctx) return;
  const mark = eventIdMark();
  if (await recordOpen(ctx.db, emailId, ctx.now, mark))
    announceEmailEventsSince(ctx.env.DB, ctx.env, mark, executionOf(c));
}

export const trackingRouter = createRouter()
  .openapi(openPixelRoute, async (c) => {
    const { id, signature } = c.req.valid("param");
    if (await verifyTrackingSignature(c.env.ENCRYPTION_KEY, "open", id, "", signature)) {
      // Counting must never break the image: mail clients show broken images prominently.
      c.executionCtx.waitUntil(
        countOpen(c, id).catch((e: unknown) => log.warn("tracking.open_failed", describeError(e))),
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
    const ctx = await enterEmailWorkspace(c, id);
    const mark = eventIdMark();
    if (ctx && (await recordClick(ctx.db, id, u, ctx.now, mark)))
      announceEmailEventsSince(ctx.env.DB, ctx.env, mark, executionOf(c));
    return c.redirect(u, 302);
  });
