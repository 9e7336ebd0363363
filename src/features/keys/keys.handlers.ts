import { directoryDb } from "../../db/directory/client";
import { metaList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { createKeyRoute, listKeysRoute } from "./keys.routes";
import { createKey, listAccountKeys } from "./keys.service";

export const keysRouter = createRouter()
  .openapi(listKeysRoute, async (c) => {
    const keys = await listAccountKeys(c.var.ctx.db, c.var.ctx.accountId);
    return c.json(metaList(keys), 200);
  })
  .openapi(createKeyRoute, async (c) => {
    const created = await createKey(
      c.var.ctx.db,
      directoryDb(c.env),
      c.var.ctx.accountId,
      c.req.valid("json"),
    );
    return c.json(created, 201);
  });
