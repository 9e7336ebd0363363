import { z } from "@hono/zod-openapi";
import { idPattern } from "./ids";

/**
 * Public links (tracking, unsubscribe, survey, portal pages) name the workspace of what they point
 * at in this query parameter, so the request finds the workspace's shard with one directory read
 * (cached in the isolate) instead of asking every shard. Not a secret: the record is looked up by
 * its id AND this workspace, so a wrong value finds nothing. Links made before it are found by
 * asking every shard (`enterWorkspaceOf`).
 */
export const WORKSPACE_PARAM = "w";

const ACCOUNT_ID = new RegExp(idPattern("acc"));
export const isAccountId = (value: string) => ACCOUNT_ID.test(value);

/** `url` naming the workspace `accountId` (after any query it already has). */
export function inWorkspace(url: string, accountId: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}${WORKSPACE_PARAM}=${encodeURIComponent(accountId)}`;
}

/** The `w` query parameter of a public link, for its route's OpenAPI definition. */
export const WorkspaceLinkQuery = z.object({
  [WORKSPACE_PARAM]: z
    .string()
    .optional()
    .openapi({
      description:
        "The workspace the link belongs to (an account id), as links made by the service carry it; a link without it (made before) is found all the same. A wrong one finds nothing (404).",
      param: { name: WORKSPACE_PARAM, in: "query" },
      example: "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    }),
});
