import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";

const tags = ["Tracking"];

export const openPixelRoute = defineRoute("public", {
  method: "get",
  path: "/t/o/{id}/{signature}",
  tags,
  summary: "Open-tracking pixel",
  description:
    "The 1x1 image in tracked HTML emails. Counts an open when the signature matches; always answers the image.",
  request: { params: z.object({ id: z.string(), signature: z.string() }) },
  responses: { 200: { description: "A transparent GIF.", content: { "image/gif": { schema: z.string() } } } },
});

export const clickRedirectRoute = defineRoute("public", {
  method: "get",
  path: "/t/c/{id}",
  tags,
  summary: "Click-tracking redirect",
  description:
    "Counts a click and redirects to `u`, only when `s` is this service's signature of that email and URL: an edited link is refused (400), never redirected.",
  request: {
    params: z.object({ id: z.string() }),
    query: z.object({ u: z.string().url(), s: z.string().regex(/^[0-9a-f]{32}$/) }),
  },
  responses: { 302: { description: "Redirect to the original link." } },
});
