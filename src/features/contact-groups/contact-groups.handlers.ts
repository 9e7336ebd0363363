import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import {
  createContactGroupRoute,
  deleteContactGroupRoute,
  getContactGroupRoute,
  listContactGroupsRoute,
  updateContactGroupRoute,
} from "./contact-groups.routes";
import {
  createContactGroup,
  getContactGroup,
  listContactGroups,
  patchContactGroup,
  removeContactGroup,
} from "./contact-groups.service";
import { addMembersRoute, listMembersRoute, removeMemberRoute } from "./members.routes";
import { addMembers, listMembers, removeMember } from "./members.service";

export const contactGroupsRouter = createRouter()
  .openapi(listContactGroupsRoute, async (c) => {
    const { limit, offset } = c.req.valid("query");
    const { groups, total } = await listContactGroups(c.var.ctx.db, c.var.ctx.accountId, limit, offset);
    return c.json(standardList(groups, total, { limit, offset }), 200);
  })
  .openapi(createContactGroupRoute, async (c) => {
    const { db, accountId, now } = c.var.ctx;
    const key = c.req.valid("header")["idempotency-key"];
    return c.json(await createContactGroup(db, accountId, c.req.valid("json"), now, key), 201);
  })
  .openapi(getContactGroupRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await getContactGroup(c.var.ctx.db, c.var.ctx.accountId, id), 200);
  })
  .openapi(updateContactGroupRoute, async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await patchContactGroup(c.var.ctx.db, c.var.ctx.accountId, id, c.req.valid("json")), 200);
  })
  .openapi(deleteContactGroupRoute, async (c) => {
    const { id } = c.req.valid("param");
    await removeContactGroup(c.var.ctx.db, c.var.ctx.accountId, id);
    return c.json({ id, deleted: true as const }, 200);
  })
  .openapi(listMembersRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    const { members, total } = await listMembers(c.var.ctx.db, c.var.ctx.accountId, id, limit, offset);
    return c.json(standardList(members, total, { limit, offset }), 200);
  })
  .openapi(addMembersRoute, async (c) => {
    const { id } = c.req.valid("param");
    const key = c.req.valid("header")["idempotency-key"];
    return c.json(await addMembers(c.var.ctx, id, c.req.valid("json"), key), 200);
  })
  .openapi(removeMemberRoute, async (c) => {
    const { id, customer_id } = c.req.valid("param");
    await removeMember(c.var.ctx.db, c.var.ctx.accountId, id, customer_id);
    return c.json({ contact_group_id: id, customer_id, deleted: true as const }, 200);
  });
