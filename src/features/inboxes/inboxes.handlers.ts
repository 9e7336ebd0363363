import { readsSecrets } from "../../auth/secret-readers";
import { createRouter } from "../../lib/router";
import { withoutSecrets } from "./inboxes.dto";
import {
  createInboxRoute,
  deleteInboxRoute,
  getInboxRoute,
  listInboxesRoute,
  updateInboxRoute,
} from "./inboxes.routes";
import { createInbox, getInbox, listAccountInboxes, removeInbox, updateInbox } from "./inboxes.service";

export const inboxesRouter = createRouter()
  .openapi(createInboxRoute, async (c) => c.json(await createInbox(c.var.ctx, c.req.valid("json")), 201))
  .openapi(listInboxesRoute, async (c) => {
    const list = await listAccountInboxes(c.var.ctx, c.req.valid("query"));
    return c.json(readsSecrets(c, "write") ? list : { ...list, data: list.data.map(withoutSecrets) }, 200);
  })
  .openapi(getInboxRoute, async (c) => {
    const inbox = await getInbox(c.var.ctx, c.req.valid("param").id);
    return c.json(readsSecrets(c, "write") ? inbox : withoutSecrets(inbox), 200);
  })
  .openapi(updateInboxRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateInbox(c.var.ctx, id, c.req.valid("json")), 200);
  })
  .openapi(deleteInboxRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeInbox(c.var.ctx, id);
    return c.json({ id, deleted: true as const }, 200);
  });
