import { metaList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createConnectionRoute,
  deleteConnectionRoute,
  getConnectionRoute,
  listConnectionsRoute,
  verifyConnectionRoute,
} from "./connections.routes";
import {
  createConnection,
  getConnection,
  listAccountConnections,
  removeConnection,
  verifyConnection,
} from "./connections.service";

export const connectionsRouter = createRouter()
  .openapi(createConnectionRoute, async (c) => {
    const { domain } = c.req.valid("json");
    return c.json(await createConnection(c.var.ctx.db, c.env, c.var.ctx.accountId, domain), 201);
  })
  .openapi(listConnectionsRoute, async (c) => {
    return c.json(metaList(await listAccountConnections(c.var.ctx.db, c.env, c.var.ctx.accountId)), 200);
  })
  .openapi(getConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getConnection(c.var.ctx.db, c.env, c.var.ctx.accountId, id), 200);
  })
  .openapi(verifyConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await verifyConnection(c.var.ctx.db, c.env, c.var.ctx.accountId, id), 200);
  })
  .openapi(deleteConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeConnection(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  });
