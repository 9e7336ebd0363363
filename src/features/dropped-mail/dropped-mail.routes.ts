import { z } from "@hono/zod-openapi";
import { defineRoute, jsonResponse } from "../../lib/openapi";
import {
  DroppedMailListSchema,
  DroppedMailParamsSchema,
  DroppedMailQuerySchema,
} from "./dropped-mail.schemas";

const tags = ["Inboxes"];

export const listDroppedMailRoute = defineRoute("read", {
  method: "get",
  path: "/v1/inbound/dropped",
  tags,
  summary: "List dropped inbound mail",
  description:
    "Mail the workspace's inboxes accepted that became no message, with the reason, newest first. Kept 30 days; the received bytes are at GET /v1/inbound/dropped/{id}/raw. No message makes the email handler fail: mail the service cannot read (`parse_failed`) is listed here with what went wrong, where a failure would have had the sending server retry it for days; only a failure of the service's own storage makes the sender retry. Bounce and complaint reports an inbox receives are not dropped mail: they are listed by GET /v1/mail-reports, whether or not they name one of the workspace's emails.",
  request: { query: DroppedMailQuerySchema },
  responses: { 200: jsonResponse(DroppedMailListSchema, "A page of dropped mail.") },
});

export const droppedMailRawRoute = defineRoute("read", {
  method: "get",
  path: "/v1/inbound/dropped/{id}/raw",
  tags,
  summary: "Get dropped mail's received message",
  description:
    "The mail as the service received it, byte for byte (`message/rfc822`). 404 (`raw_not_found`) once its bytes are gone.",
  request: { params: DroppedMailParamsSchema },
  responses: {
    200: { description: "The received mail.", content: { "message/rfc822": { schema: z.string() } } },
  },
});
