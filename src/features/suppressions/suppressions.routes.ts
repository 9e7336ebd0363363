import { z } from "@hono/zod-openapi";
import { defineRoute, jsonBody, jsonResponse, undocumentedAlias } from "../../lib/openapi";
import {
  CreateSuppressionBodySchema,
  SuppressionListSchema,
  SuppressionParamsSchema,
  SuppressionQuerySchema,
  SuppressionSchema,
} from "./suppressions.schemas";

const tags = ["Emails"];

/**
 * Suppressions were first served under /v1/emails (product.md), where `/v1/emails/suppressions/{email}`
 * reads like `/v1/emails/{id}/content` to a client that matches templates. The document names
 * /v1/suppressions; the first paths answer the same, byte for byte, and stay undocumented.
 */
const ALIAS_NOTE = (alias: string) =>
  `\n\nAlso served, unchanged, at \`${alias}\` (its first path). The document names /v1/suppressions because \`/v1/emails/suppressions/{email}\` is ambiguous with \`/v1/emails/{id}/content\` and \`/v1/emails/{id}/cancel\`.`;

export const listSuppressionsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/suppressions",
  tags,
  summary: "List suppressed recipients",
  description: `Addresses that no email will be sent to, newest first: hard bounces, complaints, three soft bounces within 7 days, or added by hand.${ALIAS_NOTE("GET /v1/emails/suppressions")}`,
  request: { query: SuppressionQuerySchema },
  responses: { 200: jsonResponse(SuppressionListSchema, "A page of suppressions.") },
});

export const createSuppressionRoute = defineRoute("write", {
  method: "post",
  path: "/v1/suppressions",
  tags,
  summary: "Suppress a recipient",
  description: `Adds an address by hand (reason \`manual\`). 409 when it is already suppressed.${ALIAS_NOTE("POST /v1/emails/suppressions")}`,
  request: { body: jsonBody(CreateSuppressionBodySchema) },
  responses: { 201: jsonResponse(SuppressionSchema, "The suppression.") },
});

export const deleteSuppressionRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/suppressions/{email}",
  tags,
  summary: "Remove a suppression",
  description: `Lets email reach the address again. Its recent bounces are kept (7 days at least, and as long as the workspace keeps its emails), so further soft bounces count.${ALIAS_NOTE("DELETE /v1/emails/suppressions/{email}")}`,
  request: { params: SuppressionParamsSchema },
  responses: { 200: jsonResponse(z.object({ email: z.string(), deleted: z.literal(true) }), "Removed.") },
});

export const listSuppressionsAlias = undocumentedAlias(listSuppressionsRoute, "/v1/emails/suppressions");
export const createSuppressionAlias = undocumentedAlias(createSuppressionRoute, "/v1/emails/suppressions");
export const deleteSuppressionAlias = undocumentedAlias(
  deleteSuppressionRoute,
  "/v1/emails/suppressions/{email}",
);
