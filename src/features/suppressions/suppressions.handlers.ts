import { principalOf } from "../../auth/principal";
import { createDb } from "../../db/client";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { iso } from "../../lib/time";
import { parseAddress } from "../../mail/address";
import {
  deleteSuppression,
  insertSuppression,
  type SuppressionRow,
  suppressionQueries,
} from "./suppressions.repo";
import { createSuppressionRoute, deleteSuppressionRoute, listSuppressionsRoute } from "./suppressions.routes";

export function toSuppression(row: SuppressionRow) {
  return {
    id: row.id,
    email: row.email,
    reason: row.reason,
    source_email_id: row.sourceEmailId,
    detail: row.detail,
    created_at: iso(row.createdAt),
  };
}

export const suppressionsRouter = createRouter()
  .openapi(listSuppressionsRoute, async (c) => {
    const db = createDb(c.env.DB);
    const { limit, offset, email } = c.req.valid("query");
    const { page, total } = suppressionQueries(
      db,
      principalOf(c).accountId,
      email?.toLowerCase(),
      limit,
      offset,
    );
    const [rows, totals] = await db.batch([page, total]);
    return c.json(standardList(rows.map(toSuppression), totals[0]?.total ?? 0, { limit, offset }), 200);
  })
  .openapi(createSuppressionRoute, async (c) => {
    const { email, detail } = c.req.valid("json");
    const address = parseAddress(email)?.address.toLowerCase();
    if (!address)
      throw badRequest(
        "validation_error",
        "Invalid request",
        `${JSON.stringify(email)} is not an email address.`,
      );
    const row = await insertSuppression(createDb(c.env.DB), {
      id: newId("sup"),
      accountId: principalOf(c).accountId,
      email: address,
      reason: "manual",
      detail: detail ?? null,
      createdAt: Date.now(),
    });
    if (!row) throw conflict("already_suppressed", "Already suppressed", `${address} is already suppressed.`);
    return c.json(toSuppression(row), 201);
  })
  .openapi(deleteSuppressionRoute, async (c) => {
    // The router has already percent-decoded the parameter; decoding again would misread `%`.
    const email = c.req.valid("param").email.toLowerCase();
    if (!(await deleteSuppression(createDb(c.env.DB), principalOf(c).accountId, email))) {
      throw notFound(`Suppression of ${email}`);
    }
    return c.json({ email, deleted: true as const }, 200);
  });
