import { defineRoute, jsonResponse } from "../../lib/openapi";
import { WorkspaceLinkQuery } from "../../lib/workspace-link";
import { htmlPage, page } from "../sessions/login.routes";
import {
  UnsubscribedListSchema,
  UnsubscribedQuerySchema,
  UnsubscribeFormSchema,
  UnsubscribeTokenParams,
} from "./unsubscribe.schemas";

const pageTags = ["Unsubscribe"];

const NOT_FOUND = htmlPage(
  "A tampered or unknown link, or a customer deleted since the email was sent; nothing changes.",
);
const PAGE_ERRORS = { 404: NOT_FOUND, 500: htmlPage("Something failed on our side.") };

export const unsubscribePageRoute = page({
  method: "get",
  path: "/u/{token}",
  tags: pageTags,
  summary: "Unsubscribe confirmation page",
  description:
    "The `List-Unsubscribe` link of every campaign email, opened in a browser: an HTML page naming the address that will be unsubscribed, with a button that posts to the same URL. Opening it (a link scanner's prefetch too) changes nothing. No authentication and no cookie: the signed token is the capability. The page runs no script.",
  request: { params: UnsubscribeTokenParams, query: WorkspaceLinkQuery },
  responses: { 200: htmlPage("The confirmation page."), ...PAGE_ERRORS },
});

export const unsubscribePostRoute = page({
  method: "post",
  path: "/u/{token}",
  tags: pageTags,
  summary: "Unsubscribe",
  description:
    "Unsubscribes the token's customer from campaigns: RFC 8058's one-click post from a mail client (body `List-Unsubscribe=One-Click`, urlencoded or multipart; recorded as `one_click`) or the confirmation page's button (`source=page`; recorded as `link`). No authentication, no cookie and no origin check: mail providers post from their servers, the token is the secret, and the action is idempotent. The first unsubscribe sets the customer's `unsubscribed` and `unsubscribed_at`, records how and from which campaign (GET /v1/campaigns/unsubscribed), and adds 1 to the campaign's `stats.unsubscribed`, all at once; an already unsubscribed customer changes nothing and is counted once, even under concurrent posts. Answers the same 200 page either way.",
  request: {
    params: UnsubscribeTokenParams,
    query: WorkspaceLinkQuery,
    body: {
      content: {
        "application/x-www-form-urlencoded": { schema: UnsubscribeFormSchema },
        "multipart/form-data": { schema: UnsubscribeFormSchema },
      },
    },
  },
  responses: {
    200: htmlPage("You are unsubscribed."),
    400: htmlPage("The form could not be read."),
    413: htmlPage("The body is over 4 MB."),
    ...PAGE_ERRORS,
  },
});

export const listUnsubscribedRoute = defineRoute("read", {
  method: "get",
  path: "/v1/campaigns/unsubscribed",
  tags: ["Campaigns"],
  summary: "List unsubscribed customers",
  description:
    "The workspace's currently unsubscribed customers with how they unsubscribed (`one_click`, `link` or `api`) and from which campaign, newest first, `limit` 50 by default (at most 100). A customer subscribed again (PATCH /v1/customers/{id} `unsubscribed: false`) leaves the list; a customer who unsubscribes again is listed with the way of the first unsubscribe since then.",
  request: { query: UnsubscribedQuerySchema },
  responses: { 200: jsonResponse(UnsubscribedListSchema, "A page of unsubscribed customers.") },
});
