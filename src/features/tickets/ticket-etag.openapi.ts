import { z } from "@hono/zod-openapi";
import { errorResponse, RATE_LIMIT_HEADERS } from "../../lib/openapi";

const IF_MATCH =
  'The ticket\'s ETag as a GET gave it (`"v7"`), a list of them, or `*`: the write happens only when the ticket is still at one of them, checked in the same transaction as the write, and otherwise answers 412 `ticket_changed` with nothing stored, sent or fired. Comparison is strong (RFC 9110): a weak tag (`W/"v7"`) never matches. A value that is not `*` or a list of quoted tags is a 400 `invalid_if_match`. Without the header the write happens as before.';

/** The optional If-Match of a conditional ticket write, to extend a route's header object with. */
export const ifMatchShape = { "if-match": z.string().optional().openapi({ description: IF_MATCH }) };

export const ifNoneMatchHeader = z.object({
  "if-none-match": z.string().optional().openapi({
    description:
      "ETags the client holds (weak comparison) or `*`: when the ticket is still at one of them the answer is 304 with no body.",
  }),
});

const etag = z.string().openapi({
  description:
    "The ticket's version as a strong ETag (`\"v7\"`). It changes with every change a GET of the ticket shows: a message (not a draft), status, priority, assignee, subject, metadata, snooze, tags, a tag's or the customer's new name or email. On a write's answer it is the version that write left.",
});

export const ETAG_HEADERS = RATE_LIMIT_HEADERS.extend({ ETag: etag });

export const ticketChangedResponse = errorResponse(
  "If-Match named a version the ticket is no longer at (`ticket_changed`): nothing was stored or sent.",
);

export const notModifiedResponse = {
  description: "The ticket is still at a version If-None-Match named; no body.",
  headers: z.object({ ETag: etag }),
};
