import { countedList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createSlaPolicyRoute,
  deleteSlaPolicyRoute,
  getSlaPolicyRoute,
  listSlaPoliciesRoute,
  updateSlaPolicyRoute,
} from "./sla-policies.routes";
import {
  createSlaPolicy,
  deleteSlaPolicy,
  getSlaPolicy,
  listSlaPolicies,
  updateSlaPolicy,
} from "./sla-policies.service";

export const slaPoliciesRouter = createRouter()
  .openapi(listSlaPoliciesRoute, async (c) => c.json(countedList(await listSlaPolicies(c.var.ctx)), 200))
  .openapi(createSlaPolicyRoute, async (c) =>
    c.json(await createSlaPolicy(c.var.ctx, c.req.valid("json")), 201),
  )
  .openapi(getSlaPolicyRoute, async (c) =>
    c.json(await getSlaPolicy(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(updateSlaPolicyRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateSlaPolicy(c.var.ctx, id, c.req.valid("json")), 200);
  })
  .openapi(deleteSlaPolicyRoute, async (c) =>
    c.json(await deleteSlaPolicy(c.var.ctx, c.req.valid("param").id), 200),
  );
