import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import {
  CreateEmailWebhookBodySchema,
  DeliveryListSchema,
  DeliveryParamsSchema,
  EmailWebhookListQuerySchema,
  EmailWebhookListSchema,
  EmailWebhookParamsSchema,
  EmailWebhookSchema,
  MAX_EMAIL_WEBHOOK_ENDPOINTS,
  ResentEventSchema,
  TestEventSchema,
  UpdateEmailWebhookBodySchema,
} from "./email-webhooks.schemas";

const tags = ["Webhooks"];

const DELIVERY = `Each event is POSTed as \`{ "id", "event", "timestamp", "data" }\`, signed like inbox webhooks: \`X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">\` keyed by the \`secret\`, with \`X-Webhook-Event\`, \`X-Webhook-Id\` (the event's \`id\`, the same on every attempt: deduplicate on it) and \`User-Agent: Service-Webhooks/1.0\`. A 2xx acknowledges; anything else, a redirect (never followed) or no answer within 10 s is retried after 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h: 8 attempts over about 28 hours, each listed under deliveries. An endpoint whose deliveries have all failed for 3 days is disabled, with \`disabled_reason\`. URLs follow the inbox webhooks' rules (\`https://\` to a public host; \`http://\` to loopback only in development and test), checked again before every attempt.`;

/** Suspension (lib/workspace-gate.ts) and the sweep's fairness (webhooks/fair-share.ts). */
const HOLD_AND_SHARE = `While the workspace is suspended nothing is sent: its events, new or waiting for a retry, hold: never attempted, so they use none of their 8 attempts and no failure of theirs can disable the endpoint, and they go out within a minute of its reinstatement. Retries are fair: each minute's sweep claims at most 500 due events, shared equally between the endpoints that have some (each endpoint's oldest first), so one endpoint's backlog never delays another's retries.`;

const SECRET = `The \`secret\` is answered in clear to admin keys only, the keys that write endpoints (create, get, list, update); read and write keys get \`secret: null\`, so a read-only key never holds what signs the workspace's events.`;

const LIMIT = `At most ${MAX_EMAIL_WEBHOOK_ENDPOINTS} endpoints per workspace, disabled ones included, as an inbox has at most 10 webhooks: each endpoint turns every email event into one more request, retried up to 8 times. One more is refused with 429 \`limit_exceeded\` (\`error\`: \`Limit exceeded\`, with \`quota: "webhook_endpoints"\`, \`current\`, \`limit\` and \`percentage\`, as the plan quotas answer) and no \`Retry-After\`, since waiting never lifts it: delete an endpoint first. Concurrent creates never pass the limit (the count and the insert are one statement).`;

const EVENTS = `Email events carry \`data: { email_id, recipient, from, subject, tags, campaign_id, automation_id, ... }\`; the service's own mail (sign-in links, invitations) makes none. Per recipient: \`email.delivered\` (the transport accepted the recipient; a DSN \`Action: delivered\` makes no second one; with \`response\`), \`email.delivery_delayed\` (a 4xx deferral, once per attempt, or a DSN \`Action: delayed\`; with \`response\`), \`email.bounced\` (a hard bounce, by the transport or a DSN, once per email and recipient), \`email.complained\` (once per email and recipient), \`email.suppressed\` (a send refused for a suppressed recipient: \`email_id\` null). Per email, \`recipient\` being its one recipient or null when it has several: \`email.sent\` (the transport accepted it for someone, the first time), \`email.failed\` (it failed with nobody reached; an email whose every recipient bounced is \`email.bounced\`), \`email.opened\` (its first open: the pixel is per email), \`email.clicked\` (its first click on each link, with \`link\`). \`contact.unsubscribed\`: \`data: { contact_id, email, method, campaign_id, automation_id }\`, once per customer who unsubscribes by a campaign's or automation's link. Each is written in the same transaction as its fact and only when that fact is new, so a retried or redelivered step adds none.`;

export const listEmailWebhooksRoute = defineRoute("read", {
  method: "get",
  path: "/v1/webhooks",
  tags,
  summary: "List email event webhooks",
  description: `The workspace's endpoints for email events, newest first. ${SECRET}`,
  request: { query: EmailWebhookListQuerySchema },
  responses: { 200: jsonResponse(EmailWebhookListSchema, "A page of endpoints.") },
});

export const createEmailWebhookRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/webhooks",
  tags,
  summary: "Create an email event webhook",
  description: `An endpoint with a generated \`whsec_\` \`secret\` (32 random bytes, base64url), stored encrypted and answered in clear (this operation is for admin keys). ${LIMIT} ${DELIVERY} ${HOLD_AND_SHARE}\n\n${EVENTS}`,
  request: { body: jsonBody(CreateEmailWebhookBodySchema) },
  responses: {
    201: jsonResponse(EmailWebhookSchema, "The new endpoint."),
    429: errorResponse(
      `The workspace has ${MAX_EMAIL_WEBHOOK_ENDPOINTS} endpoints already (\`limit_exceeded\`, \`quota: "webhook_endpoints"\`, no Retry-After).`,
    ),
  },
});

export const getEmailWebhookRoute = defineRoute("read", {
  method: "get",
  path: "/v1/webhooks/{id}",
  tags,
  summary: "Get an email event webhook",
  description: SECRET,
  request: { params: EmailWebhookParamsSchema },
  responses: { 200: jsonResponse(EmailWebhookSchema, "The endpoint.") },
});

export const updateEmailWebhookRoute = defineRoute("admin", {
  method: "patch",
  path: "/v1/webhooks/{id}",
  tags,
  summary: "Update an email event webhook",
  description:
    "Changes `url`, `events` or `enabled`. Setting `enabled` clears `disabled_reason`, so re-enabling an endpoint the service disabled resumes delivery of new events. Events already queued are delivered to the URL as it is at each attempt. Answers the endpoint with its `secret` (this operation is for admin keys).",
  request: { params: EmailWebhookParamsSchema, body: jsonBody(UpdateEmailWebhookBodySchema) },
  responses: { 200: jsonResponse(EmailWebhookSchema, "The endpoint.") },
});

export const deleteEmailWebhookRoute = defineRoute("admin", {
  method: "delete",
  path: "/v1/webhooks/{id}",
  tags,
  summary: "Delete an email event webhook",
  description: "Deletes the endpoint with its queued events and delivery history.",
  request: { params: EmailWebhookParamsSchema },
  responses: { 200: jsonResponse(z.object({ id: z.string(), deleted: z.literal(true) }), "Deleted.") },
});

export const testEmailWebhookRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/webhooks/{id}/test",
  tags,
  summary: "Send a test event",
  description:
    "Queues a signed `webhook.test` event for this endpoint, even a disabled one, and starts delivering it at once, retried like any event. Its attempts appear under deliveries.",
  request: { params: EmailWebhookParamsSchema },
  responses: { 202: jsonResponse(TestEventSchema, "The event, queued.") },
});

export const listEmailWebhookDeliveriesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/webhooks/{id}/deliveries",
  tags,
  summary: "List an email event webhook's delivery attempts",
  description:
    "Every attempt, newest first, with the receiver's status, how long it took, why it failed and the payload sent. Events that are over (delivered or given up) are kept 30 days with their attempts.",
  request: { params: EmailWebhookParamsSchema, query: EmailWebhookListQuerySchema },
  responses: { 200: jsonResponse(DeliveryListSchema, "A page of attempts.") },
});

export const resendEmailWebhookDeliveryRoute = defineRoute("admin", {
  method: "post",
  path: "/v1/webhooks/{id}/deliveries/{delivery_id}/resend",
  tags,
  summary: "Resend a delivery",
  description:
    "Queues the event of a listed delivery (`delivery_id` is its `event_id`) again for this endpoint, with the same `id` (`X-Webhook-Id`) and the exact body first sent, so a receiver that already handled it can recognise it. It is delivered, retried and listed under deliveries like any event, whether the first delivery succeeded or was given up. An endpoint or delivery of another workspace, or a delivery of another endpoint, is 404; a disabled endpoint takes no events (409 `webhook_disabled`: enable it first).",
  request: { params: DeliveryParamsSchema },
  responses: {
    202: jsonResponse(ResentEventSchema, "The event, queued again."),
    409: errorResponse("The endpoint is disabled."),
  },
});
