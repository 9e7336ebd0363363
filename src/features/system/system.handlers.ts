import { requireOperator } from "../../auth/operator-token";
import { notFound } from "../../lib/errors";
import { enterWorkspaceOf } from "../../lib/request-context-middleware";
import { createRouter } from "../../lib/router";
import { findKey } from "../keys/keys.repo";
import { revokeKey } from "../keys/keys.service";
import { DOCS_PAGE } from "./docs-page";
import { docsRoute, healthRoute, opsRevokeKeyRoute } from "./system.routes";

export const systemRouter = createRouter()
  .openapi(healthRoute, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(docsRoute, (c) => c.html(DOCS_PAGE, 200))
  .openapi(opsRevokeKeyRoute, async (c) => {
    requireOperator(c);
    const { id } = c.req.valid("param");
    // The operator names a key, not its workspace: every shard is asked which holds it.
    const ctx = await enterWorkspaceOf(c, undefined, async (db) => (await findKey(db, id))?.accountId);
    if (!ctx) throw notFound(`API key ${id}`);
    const key = await revokeKey(ctx.db, c.env.KEY_GUARD, id, { accountId: ctx.accountId });
    return c.json({ id: key.id, is_active: false as const }, 200);
  });
