import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { newId } from "./ids";

/** Gives every request an id, answered in `X-Request-Id` and written into logs and error bodies. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const id = newId("req");
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
});
