import { countedList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { createTagRoute, deleteTagRoute, getTagRoute, listTagsRoute, updateTagRoute } from "./tags.routes";
import { createTag, getTag, listTags, patchTag, removeTag } from "./tags.service";

export const tagsRouter = createRouter()
  .openapi(listTagsRoute, async (c) => {
    const { inbox_id } = c.req.valid("query");
    return c.json(countedList(await listTags(c.var.ctx.db, c.var.ctx.accountId, inbox_id)), 200);
  })
  .openapi(createTagRoute, async (c) => {
    return c.json(await createTag(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("json")), 201);
  })
  .openapi(getTagRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getTag(c.var.ctx.db, c.var.ctx.accountId, id), 200);
  })
  .openapi(updateTagRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await patchTag(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json")), 200);
  })
  .openapi(deleteTagRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeTag(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  });
