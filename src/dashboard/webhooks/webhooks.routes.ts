import { dashboardRoute, formBody } from "../routes";
import { DeliveryPath, EndpointForm, EndpointPath, PagedQuery } from "./webhook-forms";

const AS_API =
  "The form's values go through the API's body schema and the same service function as the API (`email-webhooks.service.ts`), so the URL rules (https to a public host; plain-http loopback only in development and test) and the events list are the API's; a refused value re-renders the page with the API's reason and the values sent (400).";

const action = (path: string, summary: string, description: string) =>
  dashboardRoute({
    method: "post",
    path: `/dashboard/webhooks/{id}${path}`,
    summary,
    description: `${description} Redirects (303) to the endpoint's page. Another workspace's id is a 404 page.`,
    request: { params: EndpointPath },
    role: "admin",
    success: 303,
  });

export const webhookListRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/webhooks",
  summary: "Webhooks",
  description:
    "The workspace's email event webhook endpoints, newest first (GET /v1/webhooks): URL, events, enabled, and why the service disabled one; never a secret. Paginated by `offset` and `limit` (default 20). Everyone signed in sees it; admins and owners also get the count against the limit of 10 and the form that adds an endpoint (none at the limit).",
  request: { query: PagedQuery },
});

export const createWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/webhooks",
  summary: "Add an email event webhook",
  description: `An endpoint (URL, ticked events), enabled, with a generated \`whsec_\` secret, as POST /v1/webhooks. ${AS_API} Redirects (303) to the new endpoint's page. At most 10 endpoints per workspace: the list page shows the count and no form at the limit; a create past it (one racing another) is the API's 429 \`limit_exceeded\`, answered as the 429 page with its reason.`,
  request: { body: formBody(EndpointForm) },
  role: "admin",
  success: 303,
});

export const webhookPageRoute = dashboardRoute({
  method: "get",
  path: "/dashboard/webhooks/{id}",
  summary: "Email event webhook",
  description:
    "One endpoint: URL, events, enabled, the reason it was disabled; then its recent delivery attempts (GET /v1/webhooks/{id}/deliveries), newest first and paginated by `offset` and `limit` (default 20), each with event, time, status code, duration, error and the exact JSON body sent. Admins and owners get Edit, Enable/Disable, Delete, Send test event, Show secret (a POST) and a Resend button per delivery. Another workspace's id is a 404 page.",
  request: { params: EndpointPath, query: PagedQuery },
});

export const editWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/webhooks/{id}",
  summary: "Edit an email event webhook",
  description: `Sets the URL and events, as PATCH /v1/webhooks/{id}; the secret and enabled state stay. ${AS_API} Redirects (303) to the endpoint's page.`,
  request: { params: EndpointPath, body: formBody(EndpointForm) },
  role: "admin",
  success: 303,
});

export const enableWebhookRoute = action(
  "/enable",
  "Enable an email event webhook",
  "PATCH `enabled: true`: clears `disabled_reason`, so new events are queued for it again.",
);

export const disableWebhookRoute = action(
  "/disable",
  "Disable an email event webhook",
  "PATCH `enabled: false`: new events are no longer queued for it.",
);

export const deleteWebhookRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/webhooks/{id}/delete",
  summary: "Delete an email event webhook",
  description:
    "After the page's confirmation, as DELETE /v1/webhooks/{id}: the endpoint goes with its queued events and delivery history. Redirects (303) to the list.",
  request: { params: EndpointPath },
  role: "admin",
  success: 303,
});

export const testWebhookRoute = action(
  "/test",
  "Send a test event",
  "As POST /v1/webhooks/{id}/test: a signed `webhook.test` for this endpoint, even a disabled one, delivered at once; its attempt appears under the deliveries.",
);

export const webhookSecretRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/webhooks/{id}/secret",
  summary: "Show an email event webhook's secret",
  description:
    "The endpoint's `whsec_` signing secret in clear, as GET /v1/webhooks/{id} answers it to admin keys (read and write keys get `null`). A POST with the CSRF token, so that no link, prefetch or cached page ever carries it: from htmx (`HX-Request`) the answer is the secret alone, swapped in place of the button; without script, a page showing it. Changes nothing.",
  request: { params: EndpointPath },
  role: "admin",
});

export const resendDeliveryRoute = dashboardRoute({
  method: "post",
  path: "/dashboard/webhooks/{id}/deliveries/{delivery_id}/resend",
  summary: "Resend a delivery",
  description:
    "As POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend: the delivery's event is queued again for this endpoint with the same id (`X-Webhook-Id`) and exact body, delivered by the normal path. A disabled endpoint shows the API's 409 reason on its page. Redirects (303) to the endpoint's page. Another workspace's or endpoint's ids are a 404 page.",
  request: { params: DeliveryPath },
  role: "admin",
  success: 303,
});
