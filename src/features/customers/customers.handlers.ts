import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createCustomerRoute,
  deleteCustomerRoute,
  getCustomerRoute,
  listCustomersRoute,
  updateCustomerRoute,
} from "./customers.routes";
import {
  createCustomer,
  getCustomer,
  listCustomers,
  patchCustomer,
  removeCustomer,
} from "./customers.service";

export const customersRouter = createRouter()
  .openapi(listCustomersRoute, async (c) => {
    const { limit, offset, email, q } = c.req.valid("query");
    const { customers, total } = await listCustomers(
      c.var.ctx.db,
      { accountId: c.var.ctx.accountId, email, q },
      limit,
      offset,
    );
    return c.json(standardList(customers, total, { limit, offset }), 200);
  })
  .openapi(createCustomerRoute, async (c) => {
    const { db, accountId, now } = c.var.ctx;
    const key = c.req.valid("header")["idempotency-key"];
    return c.json(await createCustomer(db, accountId, c.req.valid("json"), now, key), 201);
  })
  .openapi(getCustomerRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getCustomer(c.var.ctx.db, c.var.ctx.accountId, id), 200);
  })
  .openapi(updateCustomerRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await patchCustomer(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json")), 200);
  })
  .openapi(deleteCustomerRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeCustomer(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  });
