import { createRoute, z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema, jsonBody, jsonResponse } from "../../lib/openapi";
import { AccountParamsSchema } from "../accounts/accounts.routes";
import { requireRelayToken } from "./relay-token";
import { RecordSmtpLogsBodySchema, SmtpLogListSchema, SmtpLogQuerySchema } from "./smtp-logs.schemas";

export const listSmtpLogsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/accounts/{id}/smtp-logs",
  tags: ["Accounts"],
  summary: "List SMTP logs",
  description:
    "What the SMTP relay saw for this workspace, newest first: one row per message (accepted, deferred or rejected, with the reply code the client got and the email id), per failed AUTH with one of the workspace's keys (revoked ones included), and per authenticated session that ended without a message. Rows share `session_id` per connection. Kept for the account's `request_log_retention`, like request logs. Failed AUTH with a password that is no key of any workspace belongs to no workspace and is not listed.",
  request: { params: AccountParamsSchema, query: SmtpLogQuerySchema },
  responses: { 200: jsonResponse(SmtpLogListSchema, "A page of SMTP logs.") },
});

const errorContent = { "application/json": { schema: ErrorSchema } };

export const recordSmtpLogsRoute = createRoute({
  method: "post",
  path: "/_relay/smtp-logs",
  tags: ["Operator"],
  summary: "Record SMTP relay logs (relay only)",
  description:
    "Not part of the public API: the SMTP relay posts its session records here, authenticated with the deployment's `RELAY_TOKEN` secret (compared in constant time; the route answers 404 when the secret is unset). Records name the SHA-256 of the password presented at AUTH, never the password; rows are attributed to the account of the key with that hash, if any, and stored in that workspace's database (the directory names each hash's workspace in one read for the whole batch; each shard holding one of its keys is then read and written once, in parallel); rows of no account are stored in the first database (`DB`).",
  "x-permission": "relay",
  security: [{ relayToken: [] }],
  middleware: [requireRelayToken] as const,
  request: { body: jsonBody(RecordSmtpLogsBodySchema) },
  responses: {
    200: {
      description: "Stored.",
      content: { "application/json": { schema: z.object({ recorded: z.number().int() }) } },
    },
    400: { description: "Malformed records.", content: errorContent },
    401: { description: "Missing or wrong relay token.", content: errorContent },
    404: { description: "Relay routes disabled (no RELAY_TOKEN).", content: errorContent },
  },
});
