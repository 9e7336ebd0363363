import { constantTimeEqual } from "../../lib/crypto";
import { AppError, notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { revokeKey } from "../keys/keys.service";
import { DOCS_PAGE } from "./docs-page";
import { docsRoute, healthRoute, opsRevokeKeyRoute } from "./system.routes";

export const systemRouter = createRouter()
  .openapi(healthRoute, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(docsRoute, (c) => c.html(DOCS_PAGE, 200))
  .openapi(opsRevokeKeyRoute, async (c) => {
    const expected = c.env.OPS_TOKEN;
    if (!expected) throw notFound("This route");
    const given = /^Bearer\s+(\S+)$/i.exec(c.req.header("Authorization") ?? "")?.[1] ?? "";
    if (!constantTimeEqual(given, expected)) {
      throw new AppError(
        401,
        "invalid_ops_token",
        "Invalid operator token",
        "Send `Authorization: Bearer <OPS_TOKEN>`.",
      );
    }
    const key = await revokeKey(c.var.ctx.db, c.env.KEY_GUARD, c.req.valid("param").id);
    return c.json({ id: key.id, is_active: false as const }, 200);
  });
