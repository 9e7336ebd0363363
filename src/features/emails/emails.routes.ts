import { z } from "@hono/zod-openapi";
import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { offsetQuery } from "../../lib/pagination";
import {
  BatchEmailBodySchema,
  BatchSentSchema,
  EmailListQuerySchema,
  EmailListSchema,
  EmailParamsSchema,
  EmailSchema,
  IdempotencyHeaderSchema,
  RescheduleBodySchema,
  ScheduledEmailListSchema,
  SendEmailBodySchema,
  SentEmailSchema,
} from "./emails.schemas";

const tags = ["Emails"];
const sendFailures = {
  403: errorResponse("The sender domain is not a verified connection: the body names `domain` and `help`."),
  409: errorResponse("The Idempotency-Key was used with another body."),
  413: errorResponse(
    "`message_too_large`: the built message would exceed 25 MB, or what the email stores (html, text, subject, headers, addresses, tags, attachment names) would exceed 1,900,000 bytes, the most one D1 row holds with room to spare.",
  ),
  404: errorResponse("The `template` (id or alias) or its `version_id` is not in this workspace."),
  422: errorResponse(
    "A recipient is suppressed: `suppressed` lists them; nothing was sent. Or, for a `template`: `template_variables_invalid` (`details` names each variable not declared, missing without a fallback, or of the wrong type), `template_not_published`, `template_version_not_published`, `template_is_layout` (a layout is never sent alone), `template_layout_not_published` (a version naming a layout that has no published version). A layout's variables are checked with the template's.",
  ),
  429: errorResponse(
    "Rate limit, or plan quota (`Limit exceeded` with `current`, `limit`, `percentage`, `recommended_plan`).",
  ),
};

export const sendEmailRoute = defineRoute("write", {
  method: "post",
  path: "/v1/emails",
  tags,
  summary: "Send an email",
  description:
    "Resend-compatible: point Resend's SDK at this API's /v1 and it works. `template: { id, variables, version_id? }` sends a stored template (POST /v1/templates) instead of `html`/`text`: its published version (or the version named, published) filled in, `from`, `subject` and `reply_to` defaulting to the template's; a variable not declared, a declared one without a value or fallback, or a value of the wrong type is 422 naming each before anything is queued. The email is byte for byte what the same HTML sent directly would be, and `template` on GET /v1/emails/{id} names the version. The templates are read in one D1 round trip before the accepting batch, however many emails name them (a template's layout too: its published version is a third query of that same round trip, found from the version by nested key lookups, so a layout costs no round trip) (with the Idempotency-Key's read when there is one, so a keyed send costs no more than before). Checks run in this order: validation (400), sender domain verified (403), recipients per email, monthly/daily/hourly quotas and storage (429, with `current`, `limit`, `percentage` and `recommended_plan` even when a concurrent request took the last of the quota), suppressed recipients anywhere in to/cc/bcc (422, nothing sent), built size over 25 MB or stored size over 1,900,000 bytes (413). Quota counts an email when it is accepted (scheduled ones included; cancelling does not refund the email count). Answers 200, as Resend does. `html` and `text` are limited to 1,000,000 bytes each, counted as JSON (UTF-8; a quote, backslash or line break counts 2), and with the rest of what the email stores to 1,900,000 bytes (attachments carry the bulk of the 25 MB and are not counted). Everything the MIME builder would refuse is a 400 here, never a failed send later: a subject or header with a line break, control character or a run without spaces longer than a header line, a duplicate or structural custom header, an attachment whose content is not base64 or whose `content_type` or `content_id` could not be written into its MIME part. `Idempotency-Key` replays the first answer for 24 hours. Delivery: a smart host's 5xx for a recipient is a hard bounce (the address is suppressed at once); a 5xx for the whole message (at MAIL or DATA, often a policy refusal) fails the email without suppressing anyone; each recipient is its own SMTP transaction (its own envelope), handed off and recorded on its own; 4xx answers and network errors are retried with growing pauses for the recipients that got them only, six tries per recipient (a recipient deferred on all six ends `failed`): a recipient the smart host accepted is never sent the email again, a recipient an attempt did not begin in its time (`SMTP_SEND_WINDOW_SECONDS`, 50 s) stays `pending`, spends no try and goes in the next attempt at once, and a recipient deferred on every try counts one soft bounce for this email (three emails soft-bounced within 7 days suppress it). Storage counts the attachments and the built message kept for `/content`. A sender that dies mid-send is recovered by the minute sweep: each recipient it had handed to the transport without a recorded answer becomes `unknown` (never sent twice), the others keep their state, and the email is queued again while any recipient is still open, else closed (`sent` if the transport accepted it for someone, else `failed`). A workspace suspended after accepting an email: a queued one ends `failed` with `last_response` `account_suspended: ...` (never sent later); a scheduled one stays `scheduled` and goes when the workspace is reinstated.",
  request: { headers: IdempotencyHeaderSchema, body: jsonBody(SendEmailBodySchema) },
  responses: { 200: jsonResponse(SentEmailSchema, "Accepted: queued, or scheduled."), ...sendFailures },
});

export const sendBatchRoute = defineRoute("write", {
  method: "post",
  path: "/v1/emails/batch",
  tags,
  summary: "Send up to 100 emails",
  description:
    "All or nothing: every email is checked as POST /v1/emails does (no attachments, no scheduling) and either all are accepted or none. Answers `{ data: [{ id, ... }] }` in request order.",
  request: { headers: IdempotencyHeaderSchema, body: jsonBody(BatchEmailBodySchema) },
  responses: { 200: jsonResponse(BatchSentSchema, "All accepted."), ...sendFailures },
});

export const listEmailsRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails",
  tags,
  summary: "List emails",
  description:
    "Newest first, without bodies. Filters: `status`, `to` (any recipient, bcc included), `tag` (`name` or `name:value`). Lists the workspace's email history: finished emails older than its `email_retention` (whole UTC days) are deleted by the minute cron after their day is archived (GET /v1/emails/archives). An email leaves with its recipients, tags and events in one transaction, so a page never shows one half deleted; one still scheduled, queued or sending is never deleted.",
  request: { query: EmailListQuerySchema },
  responses: { 200: jsonResponse(EmailListSchema, "A page of emails.") },
});

export const listScheduledRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/scheduled",
  tags,
  summary: "List scheduled emails",
  description: "Emails waiting for their `scheduled_at`, soonest first.",
  request: { query: offsetQuery(50) },
  responses: { 200: jsonResponse(ScheduledEmailListSchema, "A page of scheduled emails.") },
});

export const getEmailRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/{id}",
  tags,
  summary: "Get an email",
  description:
    "Everything about one email: recipients (bcc included), bodies, tags, tracking flags, open and click counts, `last_event` and timestamps. Bounce and complaint reports that come back to a recipient's VERP bounce address (each recipient's copy has its own envelope sender, whose token names the email and that recipient; a report changes only that recipient) or, matched by Message-ID, to an inbox address (then only for an email with a single recipient) show here: a bounced recipient's `status` is `bounced` with the report's status code and diagnostic in `response`, `last_response` holds the diagnostic, `last_event` is `bounced`, `delayed` or `complained`, and `status` becomes `bounced` once every recipient bounced or was refused. The service's own mail to the workspace's people (invitations and sign-in links, sent from the deployment's SYSTEM_FROM) is listed like any email so admins see that it left and whether it bounced, but its body is redacted: `html` and `text` are null and `headers` is empty, whatever the key's permission. An email past the workspace's email retention (`email_retention` on the account) is deleted: an id not found whose ULID dates it before the retention's cutoff answers 404 `not_found` whose `message` names the day it was accepted, the retention, and that day's archive (`GET /v1/emails/archives/{date}`); the same for the content, reschedule and cancel routes.",
  request: { params: EmailParamsSchema },
  responses: { 200: jsonResponse(EmailSchema, "The email.") },
});

export const emailContentRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/{id}/content",
  tags,
  summary: "Get the sent message",
  description:
    "The built MIME exactly as handed to the transport (DKIM-signed, tracking applied): the same bytes for every recipient, without a Return-Path (each recipient's envelope has its own; the development mailbox shows each copy). 404 until the email is sent (`content_not_built`), and always 404 (`content_redacted`) for the service's own mail (invitations, sign-in links), whatever the key's permission.",
  request: { params: EmailParamsSchema },
  responses: { 200: { description: "The message.", content: { "message/rfc822": { schema: z.string() } } } },
});

export const rescheduleEmailRoute = defineRoute("write", {
  method: "patch",
  path: "/v1/emails/{id}",
  tags,
  summary: "Reschedule an email",
  description:
    "Changes `scheduled_at` of an email not yet picked up (409 otherwise). A past time sends it at once.",
  request: { params: EmailParamsSchema, body: jsonBody(RescheduleBodySchema) },
  responses: {
    200: jsonResponse(EmailSchema, "The email."),
    409: errorResponse("Already sending, sent or cancelled."),
  },
});

export const cancelEmailRoute = defineRoute("write", {
  method: "post",
  path: "/v1/emails/{id}/cancel",
  tags,
  summary: "Cancel a scheduled email",
  description: "Stops an email not yet picked up for sending (409 otherwise).",
  request: { params: EmailParamsSchema },
  responses: {
    200: jsonResponse(EmailSchema, "The cancelled email."),
    409: errorResponse("Already sending, sent or cancelled."),
  },
});
