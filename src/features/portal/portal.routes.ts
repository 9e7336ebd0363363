import { WorkspaceLinkQuery } from "../../lib/workspace-link";
import { formBody, htmlPage, page } from "../sessions/login.routes";
import { ContactFormSchema, InboxIdParams, ReplyFormSchema, SharedUuidParams } from "./portal.schemas";

const tags = ["Portal"];

/**
 * Every portal answer is an HTML page, its errors too (a 413 body, a 500): the customer reads
 * them in a browser. The pages run no script and may post only to this origin.
 */
const PAGE_ERRORS = {
  413: htmlPage("The form is over 4 MB, the most any page takes."),
  500: htmlPage("Something failed on our side."),
};
const FORM_ERRORS = {
  ...PAGE_ERRORS,
  403: htmlPage("The form was posted from another origin (the check of `Origin` or `Sec-Fetch-Site`)."),
  429: htmlPage(
    "Too many posts from this IP or for this email address in 15 minutes; `Retry-After` says when to try again.",
  ),
};

export const publicTicketRoute = page({
  method: "get",
  path: "/portal/tickets/{shared_uuid}",
  tags,
  summary: "Public ticket page",
  description:
    "The customer's view of a ticket as an HTML page: inbox, subject, `client_id`, status and the public thread (customer messages and replies; never internal notes or drafts), with a form to reply (POST /portal/tickets/{shared_uuid}/messages). No authentication: the unguessable `shr_` id is the capability. Spam tickets answer 404. A merged ticket's page redirects (302) to the page of the ticket it was merged into, where its messages now are.",
  request: { params: SharedUuidParams, query: WorkspaceLinkQuery },
  responses: {
    200: htmlPage("The ticket page."),
    302: { description: "The ticket was merged: to the survivor's page." },
    404: htmlPage("No such ticket, a malformed id, or a spam ticket."),
    ...PAGE_ERRORS,
  },
});

export const replyRoute = page({
  method: "post",
  path: "/portal/tickets/{shared_uuid}/messages",
  tags,
  summary: "Reply from the ticket page",
  description:
    "The ticket page's form (same origin only; no session: the `shr_` link is the capability). Adds a `customer` message written by the ticket's customer exactly as POST /v1/tickets/{id}/messages with `type: customer` does: `pending`, `on_hold`, `resolved` and `closed` go back to `open` and a snooze ends (`spam` stays, but a spam ticket has no page); `message.created` fires, `ticket.updated` does not. Then redirects (303) to the ticket page at the new message. From a merged ticket's page the message goes to the ticket it was merged into (as mail to its reply address does), and the redirect to that ticket's page. At most 20 replies per IP and 20 per ticket customer in 15 minutes (429). A filled honeypot, or a blocked customer, gets the same redirect and nothing is stored. A refused message (empty, or over the API's body limit) shows the page again with the text kept (400).",
  request: { params: SharedUuidParams, query: WorkspaceLinkQuery, body: formBody(ReplyFormSchema) },
  responses: {
    303: { description: "Stored (or dropped, see above); to the ticket page." },
    400: htmlPage("The ticket page again, saying what to fix."),
    404: htmlPage("No such ticket, a malformed id, or a spam ticket."),
    ...FORM_ERRORS,
  },
});

export const contactPageRoute = page({
  method: "get",
  path: "/portal/inboxes/{inbox_id}/new",
  tags,
  summary: "Contact form",
  description:
    "An inbox's public contact form: name, email, subject and message. Inbox ids are not secret: the id is the form's address. The page names the inbox and nothing else of its workspace.",
  request: { params: InboxIdParams },
  responses: {
    200: htmlPage("The form."),
    404: htmlPage("No such inbox (an unknown or malformed id); the page names no workspace."),
    ...PAGE_ERRORS,
  },
});

export const contactPostRoute = page({
  method: "post",
  path: "/portal/inboxes/{inbox_id}/new",
  tags,
  summary: "Open a ticket from the contact form",
  description:
    "The contact form's post (same origin only, no session). Opens a ticket in the inbox as POST /v1/tickets does with a first customer message: the customer is found or created by email (with the name given when created), the ticket is `open`, and `ticket.created` then `message.created` fire. The answer is a thank-you page asking to check one's email: it never shows the ticket's public page (`public_url`), since whoever submits may have typed someone else's address. The link goes only to the address given, in a short acknowledgement from the inbox (`[<client_id>] Re: <subject>`, `Auto-Submitted: auto-replied`) sent like a reply, through every check of POST /v1/emails and the workspace's quotas; a refused acknowledgement leaves the ticket as it is. At most 10 posts per IP and 5 per email address in 15 minutes (429). A filled honeypot, or a blocked customer's address, gets the very same thank-you page, and nothing is stored or sent. Invalid fields show the form again with what was typed (400).",
  request: { params: InboxIdParams, body: formBody(ContactFormSchema) },
  responses: {
    200: htmlPage("Thank you: check your email (the ticket's link is only mailed)."),
    400: htmlPage("The form again, saying which fields to fix."),
    404: htmlPage("No such inbox; the page names no workspace."),
    ...FORM_ERRORS,
  },
});
