import type { Context } from "hono";
import { directoryDb } from "../../db/directory/client";
import type { AppEnv } from "../../env";
import { constantTimeEqual } from "../../lib/crypto";
import { AppError, notFound } from "../../lib/errors";
import { createRouter } from "../../lib/router";
import { beginMoveRoute, stepMoveRoute } from "./move.routes";
import { beginMove, stepMove } from "./move.service";

/** The operator routes answer only the deployment's OPS_TOKEN (and do not exist without it). */
function requireOperator(c: Context<AppEnv>) {
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
}

export const workspaceMovesRouter = createRouter()
  .openapi(beginMoveRoute, async (c) => {
    requireOperator(c);
    const { account_id } = c.req.valid("param");
    return c.json(await beginMove(directoryDb(c.env), c.env, account_id, c.req.valid("json").shard), 200);
  })
  .openapi(stepMoveRoute, async (c) => {
    requireOperator(c);
    return c.json(await stepMove(directoryDb(c.env), c.env, c.req.valid("param").account_id), 200);
  });
