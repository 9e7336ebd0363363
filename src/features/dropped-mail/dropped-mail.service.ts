import { AppError, notFound } from "../../lib/errors";
import type { RequestContext } from "../../lib/request-context";
import { findDroppedMail } from "./dropped-mail.repo";

/** The received bytes of the workspace's dropped mail (GET /v1/inbound/dropped/{id}/raw). */
export async function droppedMailRaw(ctx: RequestContext, id: string) {
  const row = await findDroppedMail(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Dropped mail ${id}`);
  const object = await ctx.env.FILES.get(row.rawKey);
  if (!object)
    throw new AppError(404, "raw_not_found", "No received message", `The bytes of ${id} are gone.`);
  return { body: object.body, size: object.size };
}
