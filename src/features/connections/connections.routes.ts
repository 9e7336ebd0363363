import { z } from "@hono/zod-openapi";
import { defineRoute, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  ConnectionListSchema,
  ConnectionParamsSchema,
  ConnectionSchema,
  CreateConnectionBodySchema,
} from "./connections.schemas";

const tags = ["Connections"];

export const createConnectionRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/connections",
  tags,
  summary: "Connect a domain",
  description:
    "Adds a sending and receiving domain with a new 2048-bit DKIM key (the private key is stored encrypted) and answers the DNS records to publish: DKIM and SPF are required to send; DMARC is advised; MX routes inbound mail. 409 when the workspace already has the domain.",
  request: { body: jsonBody(CreateConnectionBodySchema) },
  responses: {
    201: jsonResponse(ConnectionSchema, "The new connection, pending verification."),
    409: jsonResponse(z.object({ error: z.string() }).catchall(z.unknown()), "Domain already connected."),
  },
});

export const listConnectionsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/connections",
  tags,
  summary: "List connections",
  description: "Every connected domain, newest first. Not paginated.",
  responses: { 200: jsonResponse(ConnectionListSchema, "The workspace's connections.") },
});

export const getConnectionRoute = defineRoute("read", {
  method: "get",
  path: "/v1/connections/{id}",
  tags,
  summary: "Get a connection",
  request: { params: ConnectionParamsSchema },
  responses: { 200: jsonResponse(ConnectionSchema, "The connection.") },
});

export const verifyConnectionRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/connections/{id}/verify",
  tags,
  summary: "Verify a connection's DNS records",
  description:
    "Looks each record up over DNS-over-HTTPS. `verified` once DKIM and SPF are published as given; `failed` otherwise, with each record's status (`missing` or `mismatch`). 502 when the resolver cannot be reached (the status is left as it was).",
  request: { params: ConnectionParamsSchema },
  responses: {
    200: jsonResponse(ConnectionSchema, "The connection after the check."),
    502: jsonResponse(z.object({ error: z.string() }).catchall(z.unknown()), "The DNS resolver failed."),
  },
});

export const deleteConnectionRoute = defineRoute("admin", {
  method: "delete",
  path: "/v1/connections/{id}",
  tags,
  summary: "Delete a connection",
  description: "Removes the domain and its DKIM key. Emails already sent keep their records.",
  request: { params: ConnectionParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});
