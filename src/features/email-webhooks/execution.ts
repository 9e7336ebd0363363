import type { Context } from "hono";
import type { AppEnv } from "../../env";

/**
 * The invocation's own context, which deliveries are launched through (`exports`). Hono types it
 * narrower than workerd's; the API's handlers and the dashboard's pages both pass it on.
 */
export const executionOf = (c: Context<AppEnv>) => c.executionCtx as unknown as ExecutionContext;
