import { AddContactGroupMembersBodySchema } from "../../features/contact-groups/contact-groups.schemas";
import { addMembers, removeMember } from "../../features/contact-groups/members.service";
import { createRouter } from "../../lib/router";
import { asApiBody, formProblem } from "../inboxes/form-problem";
import { addMemberRoute, importMembersRoute, removeMemberRoute } from "./contacts.routes";
import { readMembersCsv } from "./csv-import";
import { renderGroup } from "./render-group";

/** A group's member forms: each goes through the same service function as its API route. */
export const membersRouter = createRouter()
  .openapi(addMemberRoute, async (c) => {
    const { id } = c.req.valid("param");
    const form = c.req.valid("form");
    const member = { email: form.email, ...(form.name?.trim() ? { name: form.name } : {}) };
    try {
      const input = asApiBody(AddContactGroupMembersBodySchema, { members: [member] });
      const { added } = await addMembers(c.var.ctx, id, input);
      return c.redirect(`/dashboard/contacts/${id}?done=${added === 1 ? "added" : "already"}`, 303);
    } catch (error) {
      const { problem, status } = formProblem(error);
      return renderGroup(c, id, { problem, memberDraft: form }, undefined, status);
    }
  })
  .openapi(importMembersRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { csv } = c.req.valid("form");
    const read = readMembersCsv(csv);
    if ("problems" in read) return renderGroup(c, id, { csv, csvProblems: read.problems }, undefined, 400);
    const { added, skipped } = await addMembers(c.var.ctx, id, read.members);
    return c.redirect(`/dashboard/contacts/${id}?done=imported&added=${added}&skipped=${skipped}`, 303);
  })
  .openapi(removeMemberRoute, async (c) => {
    const { id, customer_id } = c.req.valid("param");
    await removeMember(c.var.ctx.db, c.var.ctx.accountId, id, customer_id);
    return c.redirect(`/dashboard/contacts/${id}?done=removed`, 303);
  });
