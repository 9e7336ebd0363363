import { createRouter } from "../../lib/router";
import { API_KEY_ACTOR } from "./owner-rule";
import { deleteUserRoute, getUserRoute, listUsersRoute, updateUserRoute } from "./users.routes";
import { getUser, listAccountUsers, removeUser, updateUser } from "./users.service";

export const usersRouter = createRouter()
  .openapi(listUsersRoute, async (c) => c.json(await listAccountUsers(c.var.ctx), 200))
  .openapi(getUserRoute, async (c) => c.json(await getUser(c.var.ctx, c.req.valid("param").id), 200))
  .openapi(updateUserRoute, async (c) =>
    c.json(await updateUser(c.var.ctx, API_KEY_ACTOR, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteUserRoute, async (c) =>
    c.json(await removeUser(c.var.ctx, API_KEY_ACTOR, c.req.valid("param").id), 200),
  );
