import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { namedList } from "../../lib/pagination";
import { enterLinkWorkspace } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { iso } from "../../lib/time";
import { inWorkspace } from "../../lib/workspace-link";
import { verifyUnsubscribeToken } from "../../mail/unsubscribe-token";
import { announcerOf } from "../email-webhooks/announce-batch";
import { pageSecurity } from "../sessions/page-security";
import { UnsubscribedPage, UnsubscribeNotFoundPage, UnsubscribePage } from "./unsubscribe.pages";
import { accountOfCustomer, findTokenCustomer, listUnsubscribed, unsubscribeBatch } from "./unsubscribe.repo";
import { listUnsubscribedRoute, unsubscribePageRoute, unsubscribePostRoute } from "./unsubscribe.routes";
import { PAGE_SOURCE } from "./unsubscribe.schemas";

/**
 * The token's customer and campaign, the request entering the customer's workspace (the one the
 * link names, else the one holding the customer); null for a tampered or unknown token, a deleted
 * customer or a link naming another workspace.
 */
async function targetOf(c: Context<AppEnv>, token: string) {
  const target = await verifyUnsubscribeToken(c.env.ENCRYPTION_KEY, token);
  if (!target) return null;
  const ctx = await enterLinkWorkspace(c, (db) => accountOfCustomer(db, target.customerId));
  if (!ctx) return null;
  const customer = await findTokenCustomer(ctx.db, ctx.accountId, target.customerId);
  return customer ? { ctx, customer, campaignId: target.campaignId } : null;
}

/**
 * The links of campaign emails. The pages get the portal's headers (no script, forms post here,
 * nothing cached) but NOT its origin check: RFC 8058 one-click posts come from mail providers'
 * servers with no Origin or Referer, or from any origin. That is safe: the signed token is the
 * secret, and unsubscribing is idempotent and harmless, so a forged post can do nothing the link's
 * holder could not. No session or cookie is read or set.
 */
export const unsubscribeRouter = createRouter();
unsubscribeRouter.use("/u/*", pageSecurity);

unsubscribeRouter
  .openapi(unsubscribePageRoute, async (c) => {
    const { token } = c.req.valid("param");
    const found = await targetOf(c, token);
    if (!found) return c.html(<UnsubscribeNotFoundPage />, 404);
    const page = (
      <UnsubscribePage
        email={found.customer.email}
        action={inWorkspace(`/u/${token}`, found.customer.accountId)}
        alreadyUnsubscribed={found.customer.unsubscribed}
      />
    );
    return c.html(page, 200);
  })
  .openapi(unsubscribePostRoute, async (c) => {
    const { token } = c.req.valid("param");
    const found = await targetOf(c, token);
    if (!found) return c.html(<UnsubscribeNotFoundPage />, 404);
    // Without a form content type there is no parsed body: still a one-click post.
    const form = (c.req.valid("form") as { source?: string } | undefined) ?? {};
    // Its contact.unsubscribed event, if the batch wrote one, is announced at once.
    const { ctx } = found;
    await unsubscribeBatch(
      ctx.db,
      {
        accountId: found.customer.accountId,
        customerId: found.customer.id,
        campaignId: found.campaignId,
        method: form.source === PAGE_SOURCE ? "link" : "one_click",
        now: ctx.now,
      },
      announcerOf(ctx.env, c.executionCtx as unknown as ExecutionContext),
    );
    return c.html(<UnsubscribedPage />, 200);
  });

/** GET /v1/campaigns/unsubscribed: its own router, beside the campaigns' `/v1/campaigns/{id}`. */
export const unsubscribedListRouter = createRouter().openapi(listUnsubscribedRoute, async (c) => {
  const { limit, offset } = c.req.valid("query");
  const { rows, total } = await listUnsubscribed(c.var.ctx.db, c.var.ctx.accountId, limit, offset);
  const unsubscribed = rows.map((row) => ({
    customer_id: row.customerId,
    email: row.email,
    campaign_id: row.campaignId,
    method: row.method,
    unsubscribed_at: iso(row.createdAt),
  }));
  return c.json(namedList("unsubscribed", unsubscribed, total, { limit, offset }), 200);
});
