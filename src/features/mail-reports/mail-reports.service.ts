import { AppError, notFound } from "../../lib/errors";
import type { RequestContext } from "../../lib/request-context";
import { findMailReport } from "./mail-reports.repo";

/** The received bytes of the workspace's report (GET /v1/mail-reports/{id}/raw). */
export async function mailReportRaw(ctx: RequestContext, id: string) {
  const row = await findMailReport(ctx.db, ctx.accountId, id);
  if (!row) throw notFound(`Mail report ${id}`);
  const object = await ctx.env.FILES.get(row.rawKey);
  if (!object)
    throw new AppError(404, "raw_not_found", "No received message", `The bytes of ${id} are gone.`);
  return { body: object.body, size: object.size };
}
