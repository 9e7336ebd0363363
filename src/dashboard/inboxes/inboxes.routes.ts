import { dashboardRoute, formBody } from "../routes";
import { DoneQuery, InboxListQuery, InboxPath, InboxSettingsForm } from "./inbox-forms";

const FORM_PROBLEMS =
  "A value the API refuses re-renders the form with the API's reason and the values sent: 400 (invalid input, or 403 `inbox_domain_not_verified` of the API: the address is not on a verified domain) or 409 (the address is taken).";

export const inboxListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/inboxes",
  summary: "Inboxes",
  description:
    "The workspace's inboxes, newest first (GET /v1/inboxes): name, address, webhooks (how many, how many enabled), ticket status after a reply, created. Paginated by `offset` and `limit` (default 20). Everyone signed in sees it; the New inbox link is shown to admins and owners.",
  request: { query: InboxListQuery },
});

export const newInboxRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/inboxes/new",
  summary: "New inbox form",
  description:
    "Name, email address and status after reply, with the workspace's verified domains named (the address must be on one).",
  role: "admin",
});

export const createInboxRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes",
  summary: "Create an inbox",
  description: `The form's values go through POST /v1/inboxes' schema and \`createInbox\`, the API's path: no webhooks, and no event (there is no \`inbox.created\` event). Redirects (303) to the new inbox. ${FORM_PROBLEMS}`,
  request: { body: formBody(InboxSettingsForm) },
  role: "admin",
  success: 303,
});

export const inboxRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/inboxes/{id}",
  summary: "Inbox",
  description:
    "An inbox's settings and webhooks (URL, events, enabled). Agents see them read-only; admins and owners get the settings form (Save), the webhook forms (add, edit, enable, disable, delete) and Delete. Webhook secrets are never in this page: each has a Show secret button (a POST).",
  request: { params: InboxPath, query: DoneQuery },
});

export const saveInboxRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}",
  summary: "Save an inbox's settings",
  description: `Sends name, email address and status after reply as PATCH /v1/inboxes/{id} would (its schema, then \`updateInbox\`): fires \`inbox.updated\`, exactly as the PATCH does, even when nothing changed. Redirects (303) to the inbox. ${FORM_PROBLEMS}`,
  request: { params: InboxPath, body: formBody(InboxSettingsForm) },
  role: "admin",
  success: 303,
});

export const deleteInboxRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/delete",
  summary: "Delete an inbox",
  description:
    "After the page's confirmation: `removeInbox`, as DELETE /v1/inboxes/{id} (its tickets go with it; fires `inbox.deleted` to the inbox's webhooks). Redirects (303) to the list.",
  request: { params: InboxPath },
  role: "admin",
  success: 303,
});
