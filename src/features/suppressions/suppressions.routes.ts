import { z } from "@hono/zod-openapi";
import { defineRoute, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateSuppressionBodySchema,
  SuppressionListSchema,
  SuppressionParamsSchema,
  SuppressionQuerySchema,
  SuppressionSchema,
} from "./suppressions.schemas";

const tags = ["Emails"];

export const listSuppressionsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/suppressions",
  tags,
  summary: "List suppressed recipients",
  description:
    "Addresses that no email will be sent to, newest first: hard bounces, complaints, three soft bounces within 7 days, or added by hand.",
  request: { query: SuppressionQuerySchema },
  responses: { 200: jsonResponse(SuppressionListSchema, "A page of suppressions.") },
});

export const createSuppressionRoute = defineRoute("write", {
  method: "post",
  path: "/v1/emails/suppressions",
  tags,
  summary: "Suppress a recipient",
  description: "Adds an address by hand (reason `manual`). 409 when it is already suppressed.",
  request: { body: jsonBody(CreateSuppressionBodySchema) },
  responses: { 201: jsonResponse(SuppressionSchema, "The suppression.") },
});

export const deleteSuppressionRoute = defineRoute("write", {
  method: "delete",
  path: "/v1/emails/suppressions/{email}",
  tags,
  summary: "Remove a suppression",
  description:
    "Lets email reach the address again. Its bounce history is kept, so further soft bounces count.",
  request: { params: SuppressionParamsSchema },
  responses: { 200: jsonResponse(z.object({ email: z.string(), deleted: z.literal(true) }), "Removed.") },
});
