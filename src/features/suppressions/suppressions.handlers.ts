import type { RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
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
import {
  createSuppressionAlias,
  createSuppressionRoute,
  deleteSuppressionAlias,
  deleteSuppressionRoute,
  listSuppressionsAlias,
  listSuppressionsRoute,
} from "./suppressions.routes";

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

const listSuppressions: RouteHandler<typeof listSuppressionsRoute, AppEnv> = async (c) => {
  const db = c.var.ctx.db;
  const { limit, offset, email } = c.req.valid("query");
  const { page, total } = suppressionQueries(db, c.var.ctx.accountId, email?.toLowerCase(), limit, offset);
  const [rows, totals] = await db.batch([page, total]);
  return c.json(standardList(rows.map(toSuppression), totals[0]?.total ?? 0, { limit, offset }), 200);
};

const createSuppression: RouteHandler<typeof createSuppressionRoute, AppEnv> = async (c) => {
  const { email, detail } = c.req.valid("json");
  const address = parseAddress(email)?.address.toLowerCase();
  if (!address)
    throw badRequest(
      "validation_error",
      "Invalid request",
      `${JSON.stringify(email)} is not an email address.`,
    );
  const row = await insertSuppression(c.var.ctx.db, {
    id: newId("sup"),
    accountId: c.var.ctx.accountId,
    email: address,
    reason: "manual",
    detail: detail ?? null,
    createdAt: c.var.ctx.now,
  });
  if (!row) throw conflict("already_suppressed", "Already suppressed", `${address} is already suppressed.`);
  return c.json(toSuppression(row), 201);
};

const removeSuppression: RouteHandler<typeof deleteSuppressionRoute, AppEnv> = async (c) => {
  // The router has already percent-decoded the parameter; decoding again would misread `%`.
  const email = c.req.valid("param").email.toLowerCase();
  if (!(await deleteSuppression(c.var.ctx.db, c.var.ctx.accountId, email))) {
    throw notFound(`Suppression of ${email}`);
  }
  return c.json({ email, deleted: true as const }, 200);
};

export const suppressionsRouter = createRouter()
  .openapi(listSuppressionsRoute, listSuppressions)
  .openapi(createSuppressionRoute, createSuppression)
  .openapi(deleteSuppressionRoute, removeSuppression)
  .openapi(listSuppressionsAlias, listSuppressions)
  .openapi(createSuppressionAlias, createSuppression)
  .openapi(deleteSuppressionAlias, removeSuppression);
