import { principalOf } from "../../auth/principal";
import { createDb } from "../../db/client";
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
    return c.json(await createConnection(createDb(c.env.DB), c.env, principalOf(c).accountId, domain), 201);
  })
  .openapi(listConnectionsRoute, async (c) => {
    return c.json(
      metaList(await listAccountConnections(createDb(c.env.DB), c.env, principalOf(c).accountId)),
      200,
    );
  })
  .openapi(getConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getConnection(createDb(c.env.DB), c.env, principalOf(c).accountId, id), 200);
  })
  .openapi(verifyConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await verifyConnection(createDb(c.env.DB), c.env, principalOf(c).accountId, id), 200);
  })
  .openapi(deleteConnectionRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeConnection(createDb(c.env.DB), principalOf(c).accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  });
