import type { Db } from "../db/client";
import { describeError, log } from "./logger";

/** Keeps work alive after the response (`executionCtx.waitUntil`), where a request has one. */
export type Defer = (work: Promise<unknown>) => void;

/**
 * Runs follow-up work after the response when the caller can defer it, else awaits it. A failure
 * is logged as `event` with `fields`, never thrown: the change that asked for the work is stored.
 */
export async function afterResponse(
  defer: Defer | undefined,
  event: string,
  fields: Record<string, string>,
  work: () => Promise<unknown>,
): Promise<void> {
  const guarded = work().catch((error: unknown) => log.error(event, { ...fields, ...describeError(error) }));
  if (defer) defer(guarded);
  else await guarded;
}

/** What every service call of a request is given: built once, by `requestContext`, on `c.var.ctx`. */
export interface RequestContext {
  db: Db;
  env: Env;
  /**
   * The authenticated caller's workspace. Routes without an API key (portal, tracking, operator
   * and relay routes) have none: it is "", which matches no row, so a mistaken use finds nothing.
   */
  accountId: string;
  /** One clock reading for the whole request, so every row it writes agrees on the time. */
  now: number;
  defer: Defer;
}
