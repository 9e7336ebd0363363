import { readsSecrets } from "../../auth/secret-readers";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { withoutSecret } from "./automations.dto";
import {
  activateAutomationRoute,
  createAutomationRoute,
  deleteAutomationRoute,
  getAutomationRoute,
  listAutomationsRoute,
  pauseAutomationRoute,
  updateAutomationRoute,
} from "./automations.routes";
import {
  activateAutomation,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomations,
  pauseAutomation,
  updateAutomation,
} from "./automations.service";

export const automationsRouter = createRouter()
  .openapi(listAutomationsRoute, async (c) => {
    const { limit, offset, status } = c.req.valid("query");
    const { automations, total } = await listAutomations(c.var.ctx, status, limit, offset);
    const writer = readsSecrets(c, "write");
    const shown = automations.map((automation) => (writer ? automation : withoutSecret(automation)));
    return c.json(standardList(shown, total, { limit, offset }), 200);
  })
  .openapi(createAutomationRoute, async (c) =>
    c.json(
      await createAutomation(c.var.ctx, c.req.valid("json"), c.req.valid("header")["idempotency-key"]),
      201,
    ),
  )
  .openapi(getAutomationRoute, async (c) => {
    const automation = await getAutomation(c.var.ctx, c.req.valid("param").id);
    return c.json(readsSecrets(c, "write") ? automation : withoutSecret(automation), 200);
  })
  .openapi(updateAutomationRoute, async (c) =>
    c.json(await updateAutomation(c.var.ctx, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteAutomationRoute, async (c) => {
    const { id } = c.req.valid("param");
    await deleteAutomation(c.var.ctx, id);
    return c.json({ id, deleted: true as const }, 200);
  })
  .openapi(activateAutomationRoute, async (c) =>
    c.json(await activateAutomation(c.var.ctx, c.req.valid("param").id), 200),
  )
  .openapi(pauseAutomationRoute, async (c) =>
    c.json(await pauseAutomation(c.var.ctx, c.req.valid("param").id), 200),
  );
