import { z } from "@hono/zod-openapi";
import { MAIL_REPORT_KINDS } from "../../db/schema";
import { offsetQuery } from "../../lib/pagination";
import { detailParams, filterField } from "../logs/filter-fields";
import { dashboardRoute } from "../routes";

export const DeliverabilityQuery = offsetQuery(20).extend({
  kind: filterField(z.enum(MAIL_REPORT_KINDS), "Only reports of this kind."),
  email_id: filterField(
    z
      .string()
      .max(64)
      .transform((s) => s.trim() || undefined),
    "Only reports about this email (`eml_...`).",
  ),
  // Reports store addresses lowercase; a pasted address with capitals or spaces still finds them.
  recipient: filterField(
    z
      .string()
      .max(320)
      .transform((s) => s.trim().toLowerCase() || undefined),
    "Only reports about this recipient (exact address).",
  ),
  dropped_offset: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .openapi({ description: "Dropped mail to skip (the second list, 20 a page).", example: 0 }),
});

export const deliverabilityPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/deliverability",
  summary: "Deliverability",
  description:
    "The workspace's bounce and complaint rates per UTC day over the last 30 days, as GET /v1/reports/email answers for the same days: the period's delivered emails, hard and soft bounces, complaints and both rates, then a chart of each rate (its numbers also as a table; a day with nothing delivered has no rate), then its bounce and complaint reports as GET /v1/mail-reports lists them (filters kind, email id, recipient; paginated by `offset` and `limit`, default 20), then its dropped inbound mail as GET /v1/inbound/dropped lists it (paginated by `dropped_offset`, 20 a page). Every signed-in person may read it.",
  request: { query: DeliverabilityQuery },
});

const rawResponse = {
  200: {
    description: "The message's bytes as received, as a text/plain attachment.",
    content: { "text/plain": { schema: z.string() } },
  },
};

/** A download route: the page's error answers, but a text/plain attachment on success. */
function rawRoute<R extends Parameters<typeof dashboardRoute>[0]>(spec: R) {
  const route = dashboardRoute(spec);
  const { 200: _page, ...rest } = route.responses as Record<number, unknown>;
  return { ...route, responses: { ...rest, ...rawResponse } } as typeof route;
}

export const mailReportPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/deliverability/reports/{id}",
  summary: "Mail report",
  description:
    "One bounce or complaint report: every field GET /v1/mail-reports returns, each recipient it named, its envelope, and its raw message as text (the first 256 KiB, with a link to the whole). Another workspace's id is a 404.",
  request: { params: detailParams("rpt_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});

export const mailReportRawRoute = rawRoute({
  method: "get",
  path: "/dashboard/deliverability/reports/{id}/raw",
  summary: "Mail report's raw message",
  description:
    "The report's message byte for byte, as a text/plain attachment (never rendered). Another workspace's id is a 404.",
  request: { params: detailParams("rpt_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});

export const droppedMailPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/deliverability/dropped/{id}",
  summary: "Dropped mail",
  description:
    "One inbound email that became no message: every field GET /v1/inbound/dropped returns and its raw message as text (the first 256 KiB, with a link to the whole). Another workspace's id is a 404.",
  request: { params: detailParams("drp_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});

export const droppedMailRawRoute = rawRoute({
  method: "get",
  path: "/dashboard/deliverability/dropped/{id}/raw",
  summary: "Dropped mail's raw message",
  description:
    "The dropped email byte for byte, as a text/plain attachment (never rendered). Another workspace's id is a 404.",
  request: { params: detailParams("drp_01JD3Z6X8Y9ABCDEFGHJKMNPQR") },
});
