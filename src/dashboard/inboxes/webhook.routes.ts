import { dashboardRoute, formBody } from "../routes";
import { AddWebhookForm, EditWebhookForm, InboxPath, WebhookActionForm, WebhookPath } from "./inbox-forms";

const AS_PATCH =
  "The inbox's `webhooks` array goes through PATCH /v1/inboxes/{id}'s schema and `updateInbox`, as an API client would send it: the array as GET answers it, each kept entry with its secret (so it keeps it), changed as this form says. So the API's URL rules (https, no private hosts; plain-http loopback only in development), the 10-webhook limit, secret generation and `inbox.updated` (sent to the webhooks as this write leaves them) all apply. Redirects (303) to the inbox; a refused value re-renders the inbox page with the API's reason (400).";

const STALE =
  "The form names the webhook by its index and by the URL the page showed (`current_url`): when the entry at that index now has another URL, the list changed since the page loaded and the answer is a 409 page (nothing changes).";

export const addWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks",
  summary: "Add a webhook",
  description: `Appends a webhook (URL, ticked events), enabled, with a new \`whsec_\` secret. ${AS_PATCH}`,
  request: { params: InboxPath, body: formBody(AddWebhookForm) },
  role: "admin",
  success: 303,
});

export const editWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks/{index}",
  summary: "Edit a webhook",
  description: `Sets the webhook's URL and events; it keeps its secret and its enabled state. ${AS_PATCH} ${STALE}`,
  request: { params: WebhookPath, body: formBody(EditWebhookForm) },
  role: "admin",
  success: 303,
});

export const enableWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks/{index}/enable",
  summary: "Enable a webhook",
  description: `Sets \`enabled: true\`; the webhook hears the \`inbox.updated\` of this very change when it subscribes to it. ${AS_PATCH} ${STALE}`,
  request: { params: WebhookPath, body: formBody(WebhookActionForm) },
  role: "admin",
  success: 303,
});

export const disableWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks/{index}/disable",
  summary: "Disable a webhook",
  description: `Sets \`enabled: false\`; the \`inbox.updated\` of this change does not reach it. ${AS_PATCH} ${STALE}`,
  request: { params: WebhookPath, body: formBody(WebhookActionForm) },
  role: "admin",
  success: 303,
});

export const deleteWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks/{index}/delete",
  summary: "Delete a webhook",
  description: `After the page's confirmation, removes the webhook from the array. ${AS_PATCH} ${STALE}`,
  request: { params: WebhookPath, body: formBody(WebhookActionForm) },
  role: "admin",
  success: 303,
});

export const webhookSecretRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/inboxes/{id}/webhooks/{index}/secret",
  summary: "Show a webhook's secret",
  description: `The webhook's \`whsec_\` signing secret in clear, as GET /v1/inboxes/{id} answers it to write and admin keys (decrypted by \`getInbox\`; read keys get \`null\`). A POST with the CSRF token, so that no link, prefetch or cached page ever carries it: from htmx (\`HX-Request\`) the answer is the secret alone, swapped in place of the button; without script, a page showing it. Changes nothing. ${STALE}`,
  request: { params: WebhookPath, body: formBody(WebhookActionForm) },
  role: "admin",
});
