import type { Context } from "hono";
import { directoryDb } from "../../db/directory/client";
import { homeOf } from "../../db/directory/workspaces";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { describeError, log } from "../../lib/logger";
import type { RequestContext } from "../../lib/request-context";
import { enterLinkWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { WORKSPACE_PARAM } from "../../lib/workspace-link";
import { MOVING_RETRY_SECONDS } from "../../lib/workspace-moving";
import { verifyTrackingSignature } from "../../mail/tracking/signature";
import { announceEmailEventsSince } from "../email-webhooks/announce";
import { eventIdMark } from "../email-webhooks/fact-events";
import { accountOfEmail } from "./tracking.repo";
import { clickRedirectRoute, openPixelRoute } from "./tracking.routes";
import { recordLater, type TrackingFact } from "./tracking-later";

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

/**
 * Records an open or a click in the workspace's shard and announces its webhook event; while the
 * workspace is being moved, the fact waits in the send queue instead (tracking-later.ts).
 */
async function count(c: Context<AppEnv>, ctx: RequestContext, fact: Omit<TrackingFact, "accountId" | "at">) {
  const later: TrackingFact = { ...fact, accountId: ctx.accountId, at: ctx.now };
  if ((await homeOf(directoryDb(c.env), ctx.accountId))?.frozen) {
    await c.env.EMAIL_QUEUE.send(later, { delaySeconds: MOVING_RETRY_SECONDS });
    return;
  }
  const mark = eventIdMark();
  if (await recordLater(ctx.db, later, mark))
    announceEmailEventsSince(ctx.env.DB, ctx.env, mark, executionOf(c));
}

/** Counts an open of a tracked email (see `count`). */
async function countOpen(c: Context<AppEnv>, emailId: string) {
  const ctx = await enterEmailWorkspace(c, emailId);
  if (ctx) await count(c, ctx, { tracking: "open", emailId });
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
    if (ctx) await count(c, ctx, { tracking: "click", emailId: id, url: u });
    return c.redirect(u, 302);
  });
