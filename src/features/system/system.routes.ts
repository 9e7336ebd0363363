import { createRoute, z } from "@hono/zod-openapi";
import { defineRoute, ErrorSchema } from "../../lib/openapi";

export const healthRoute = defineRoute("public", {
  method: "get",
  path: "/health",
  tags: ["System"],
  summary: "Liveness",
  description: "Answers without authentication and without touching storage.",
  responses: {
    200: {
      description: "The Worker is up.",
      content: { "application/json": { schema: z.object({ status: z.literal("ok") }).openapi("Health") } },
    },
  },
});

const OpenApiDocumentSchema = z.record(z.string(), z.unknown()).openapi("OpenAPIDocument");

export const openApiRoute = defineRoute("public", {
  method: "get",
  path: "/v1/openapi.json",
  tags: ["System"],
  summary: "OpenAPI document",
  description: "This document: OpenAPI 3.1, generated from the route definitions. No authentication.",
  responses: {
    200: {
      description: "The OpenAPI 3.1 document.",
      content: { "application/json": { schema: OpenApiDocumentSchema } },
    },
  },
});

export const siteOpenApiRoute = defineRoute("public", {
  method: "get",
  path: "/_ops/openapi.json",
  tags: ["Operator"],
  summary: "OpenAPI document of the pages and operator routes",
  description:
    "Everything this Worker serves outside /v1: dashboard and portal pages, sign-in, tracking and unsubscribe links, operator, relay and development routes. Not an API for clients (pages change with the product); kept so that every route is described. No authentication: it names routes, not data.",
  responses: {
    200: {
      description: "An OpenAPI 3.1 document.",
      content: { "application/json": { schema: OpenApiDocumentSchema } },
    },
  },
});

export const docsRoute = defineRoute("public", {
  method: "get",
  path: "/docs",
  tags: ["System"],
  summary: "Interactive API documentation",
  description: "Swagger UI over /v1/openapi.json, served from this deployment's own assets (no CDN).",
  responses: { 200: { description: "An HTML page.", content: { "text/html": { schema: z.string() } } } },
});

const errorContent = { "application/json": { schema: ErrorSchema } };

export const opsRevokeKeyRoute = createRoute({
  method: "post",
  path: "/_ops/keys/{id}/revoke",
  tags: ["Operator"],
  summary: "Revoke an API key (operator only)",
  description:
    "Not part of the public API, which has no operation to revoke a key (revocation belongs to a dashboard). Authenticated with the deployment's `OPS_TOKEN` secret (disabled when it is unset); used by `npm run keys:revoke`. The key is refused from its very next request in this isolate, and within a second in every other.",
  "x-permission": "operator",
  security: [{ opsToken: [] }],
  request: { params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" } }) }) },
  responses: {
    200: {
      description: "The revoked key.",
      content: { "application/json": { schema: z.object({ id: z.string(), is_active: z.literal(false) }) } },
    },
    401: { description: "Missing or wrong operator token.", content: errorContent },
    404: { description: "No such key, or operator routes disabled.", content: errorContent },
  },
});
