import type { Context } from "hono";
import type { AppEnv, Principal } from "../env";

/** The authenticated caller; authenticated routes only ever run after `authenticate`. */
export function principalOf(c: Context<AppEnv>): Principal {
  const principal = c.get("principal");
  if (!principal) throw new Error("principalOf called on a route that was not authenticated");
  return principal;
}
