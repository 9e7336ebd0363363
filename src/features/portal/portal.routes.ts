import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../lib/openapi";

const htmlPage = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

const route = defineRoute("public", {
  method: "get",
  path: "/portal/tickets/{shared_uuid}",
  tags: ["Portal"],
  summary: "Public ticket page",
  description:
    "The customer's view of a ticket as an HTML page: inbox, subject, `client_id`, status and the public thread (customer messages and replies; never internal notes or drafts). No authentication: the unguessable `shr_` id is the capability. Spam tickets answer 404.",
  request: {
    // Any string: a malformed id must get the same HTML 404 as an unknown one, not a JSON 400.
    params: z.object({
      shared_uuid: z
        .string()
        .openapi({ param: { name: "shared_uuid", in: "path" }, example: "shr_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    }),
  },
  responses: { 200: htmlPage("The ticket page.") },
});

/**
 * `defineRoute` documents the JSON 400 and 404 every API route shares; this page never gives the
 * 400 and answers its 404 as HTML, so the published responses say so.
 */
const { 400: _unused, ...sharedResponses } = route.responses;

export const publicTicketRoute = {
  ...route,
  responses: { ...sharedResponses, 404: htmlPage("No such ticket, a malformed id, or a spam ticket.") },
};
