import { standardList } from "../../lib/pagination";
import { createRouter, mount } from "../../lib/router";
import {
  createChangelogRoute,
  deleteChangelogRoute,
  getChangelogRoute,
  listChangelogRoute,
  updateChangelogRoute,
} from "./changelog.routes";
import {
  createChangelogEntry,
  getChangelogEntry,
  listChangelog,
  patchChangelogEntry,
  removeChangelogEntry,
} from "./changelog.service";
import { changelogPagesRouter } from "./changelog-pages.handlers";

export const changelogRouter = createRouter()
  .openapi(listChangelogRoute, async (c) => {
    const query = c.req.valid("query");
    const { entries, total } = await listChangelog(c.var.ctx.db, c.var.ctx.accountId, query);
    return c.json(standardList(entries, total, query), 200);
  })
  .openapi(createChangelogRoute, async (c) => {
    return c.json(
      await createChangelogEntry(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("json"), c.var.ctx.now),
      201,
    );
  })
  .openapi(getChangelogRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getChangelogEntry(c.var.ctx.db, c.var.ctx.accountId, id), 200);
  })
  .openapi(updateChangelogRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(
      await patchChangelogEntry(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json"), c.var.ctx.now),
      200,
    );
  })
  .openapi(deleteChangelogRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeChangelogEntry(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  });

mount(changelogRouter, "/", changelogPagesRouter);
