import type { Context } from "hono";
import { principalOf } from "../../auth/principal";
import { createDb } from "../../db/client";
import type { AppEnv } from "../../env";
import { createRouter } from "../../lib/router";
import {
  createInboxRoute,
  deleteInboxRoute,
  getInboxRoute,
  listInboxesRoute,
  updateInboxRoute,
} from "./inboxes.routes";
import type { InboxContext } from "./inboxes.service";
import { createInbox, getInbox, listAccountInboxes, removeInbox, updateInbox } from "./inboxes.service";

const contextOf = (c: Context<AppEnv>): InboxContext => ({
  db: createDb(c.env.DB),
  env: c.env,
  accountId: principalOf(c).accountId,
  now: Date.now(),
  defer: (work) => c.executionCtx.waitUntil(work),
});

export const inboxesRouter = createRouter()
  .openapi(createInboxRoute, async (c) => c.json(await createInbox(contextOf(c), c.req.valid("json")), 201))
  .openapi(listInboxesRoute, async (c) =>
    c.json(await listAccountInboxes(contextOf(c), c.req.valid("query")), 200),
  )
  .openapi(getInboxRoute, async (c) => c.json(await getInbox(contextOf(c), c.req.valid("param").id), 200))
  .openapi(updateInboxRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateInbox(contextOf(c), id, c.req.valid("json")), 200);
  })
  .openapi(deleteInboxRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeInbox(contextOf(c), id);
    return c.json({ id, deleted: true as const }, 200);
  });
