import { requireOperator } from "../../auth/operator-token";
import { directoryDb } from "../../db/directory/client";
import { createRouter } from "../../lib/router";
import { beginMoveRoute, stepMoveRoute } from "./move.routes";
import { beginMove, stepMove } from "./move.service";

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
