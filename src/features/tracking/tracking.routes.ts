import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";
import { WorkspaceLinkQuery } from "../../lib/workspace-link";

const tags = ["Tracking"];

export const openPixelRoute = defineRoute("public", {
  method: "get",
  path: "/t/o/{id}/{signature}",
  tags,
  summary: "Open-tracking pixel",
  description:
    "The 1x1 image in tracked HTML emails. Counts an open when the signature matches (and the email is the workspace's `w` names, when the link names one); always answers the image.",
  request: { params: z.object({ id: z.string(), signature: z.string() }), query: WorkspaceLinkQuery },
  responses: { 200: { description: "A transparent GIF.", content: { "image/gif": { schema: z.string() } } } },
});

export const clickRedirectRoute = defineRoute("public", {
  method: "get",
  path: "/t/c/{id}",
  tags,
  summary: "Click-tracking redirect",
  description:
    "Counts a click and redirects to `u`, only when `s` is this service's signature of that email and URL: an edited link is refused (400), never redirected. A link naming another workspace (`w`) than the email's redirects all the same (the signature vouches for the target) but counts nothing.",
  request: {
    params: z.object({ id: z.string() }),
    query: WorkspaceLinkQuery.extend({ u: z.string().url(), s: z.string().regex(/^[0-9a-f]{32}$/) }),
  },
  responses: { 302: { description: "Redirect to the original link." } },
});
