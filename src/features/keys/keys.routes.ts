import { defineRoute, jsonBody, jsonResponse } from "../../lib/openapi";
import { ApiKeyListSchema, CreatedKeySchema, CreateKeyBodySchema } from "./keys.schemas";

export const listKeysRoute = defineRoute("admin", {
  method: "get",
  path: "/v1/keys",
  tags: ["API keys"],
  summary: "List API keys",
  description:
    "Every key of the workspace, newest first, revoked ones included. Not paginated. Tokens are never returned here.",
  responses: { 200: jsonResponse(ApiKeyListSchema, "The workspace's keys.") },
});

export const createKeyRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/keys",
  tags: ["API keys"],
  summary: "Create an API key",
  description:
    "Creates a key in the caller's workspace. The `token` is returned only in this response; only its SHA-256 is stored. Keys cannot be revoked or deleted through the API (dashboard only).",
  request: { body: jsonBody(CreateKeyBodySchema) },
  responses: { 201: jsonResponse(CreatedKeySchema, "The new key, with its token.") },
});
