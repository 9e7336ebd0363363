import { createRouter } from "../../lib/router";
import { API_KEY_ACTOR } from "../users/owner-rule";
import { addMember } from "../users/users.service";
import { addMemberRoute, listMembersRoute } from "./members.routes";
import { listMembers } from "./members.service";

export const membersRouter = createRouter()
  .openapi(listMembersRoute, async (c) => c.json(await listMembers(c.var.ctx), 200))
  .openapi(addMemberRoute, async (c) =>
    c.json(await addMember(c.var.ctx, API_KEY_ACTOR, c.req.valid("json")), 201),
  );
