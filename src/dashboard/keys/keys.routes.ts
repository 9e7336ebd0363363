import { z } from "@hono/zod-openapi";
import { CreateKeyBodySchema } from "../../features/keys/keys.schemas";
import { offsetQuery } from "../../lib/pagination";
import { dashboardRoute, formBody } from "../routes";

/** The page's confirmations after a redirect: codes, never free text from the query. */
export const KEYS_DONE = { revoked: "The key was revoked. The API refuses it from now on." } as const;

export const KeysQuerySchema = offsetQuery(50).extend({
  done: z.enum(Object.keys(KEYS_DONE) as [keyof typeof KEYS_DONE]).optional(),
});

/** The API's own fields and rules (name, permission), plus the form's CSRF field, which is ignored here. */
export const CreateKeyFormSchema = z.object(CreateKeyBodySchema.shape);

export const KeyParamsSchema = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: "id", in: "path" }, description: "The key's id." }),
});

export const keysPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/keys",
  summary: "API keys",
  description:
    "The workspace's keys, newest first, revoked ones included: name, prefix, permission, last use, creation, active or revoked, with a Revoke button (asking for confirmation) on each active key; `limit` and `offset` page through them. A Create key form (name, permission read/write/admin, read by default) sits above the list. Tokens are never shown here.",
  request: { query: KeysQuerySchema },
  role: "admin",
});

export const createKeyPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/keys",
  summary: "Create an API key",
  description:
    "Creates a key exactly as POST /v1/keys does (same fields, same validation) and answers a page that shows its token once, with the API's warning to store it. The page is not stored anywhere: reloading it would post the form again and create another key, and no page shows this token again.",
  request: { body: formBody(CreateKeyFormSchema) },
  role: "admin",
});

export const revokeKeyPageRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/keys/{id}/revoke",
  summary: "Revoke an API key",
  description:
    "The only way for a person to revoke a key (the API has no revoke operation). Marks it inactive and tells its guard, so the very next API request with it answers 401; the key stays listed as revoked. Revoking a revoked key changes nothing. Another workspace's key is a 404 page and stays active. Redirects (303) to the list.",
  request: { params: KeyParamsSchema },
  role: "admin",
  success: 303,
});
