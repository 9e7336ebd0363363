import { defineRoute, errorResponse, jsonBody, jsonResponse } from "../../lib/openapi";
import { RawEmailBodySchema, RelayCredentialsSchema } from "./emails.raw.schemas";
import { IdempotencyHeaderSchema, SentEmailSchema } from "./emails.schemas";

const tags = ["Emails"];

export const sendRawEmailRoute = defineRoute("write", {
  method: "post",
  path: "/v1/emails/raw",
  tags,
  summary: "Send a raw message (SMTP relay)",
  description: [
    "What the SMTP relay calls for each message it accepts, authenticated with the key the SMTP client gave as its AUTH password. The message is parsed and becomes the same email POST /v1/emails would make, so every rule of that route applies in the same order: sender domain verified (403), plan limits and quotas (429), suppressed recipients (422), size over 25 MB, or bodies, headers and addresses over the 1,900,000 bytes one stored email holds (413). A Subject that could not be written back into a header line is a 400; other such headers are dropped.",
    "Recipients are the envelope's `rcpt_to` and nothing else: the message's To and Cc keep only the addresses the envelope names, and every other envelope recipient is a blind copy that appears in no header. The sender is the message's From (the envelope sender only when there is no From).",
    "Kept: From, To, Cc, Reply-To, Subject, Message-ID, every other header (the first of repeated ones), the text and HTML bodies, attachments and inline parts. Rebuilt or dropped: the MIME layout, Date (set when sent), Bcc, trace headers (Received, Return-Path) and old signatures; the message is DKIM-signed afresh. `X-Track-Opens: true` (or 1, yes, on) turns open tracking on, a false value off; absent, the account default applies; the header itself is not sent.",
    "Answers 200 with the email as POST /v1/emails does (`source` is `smtp`). The relay sends `Idempotency-Key` derived from the envelope and bytes, so a message the client retries after a lost answer is not sent twice.",
  ].join("\n\n"),
  request: { headers: IdempotencyHeaderSchema, body: jsonBody(RawEmailBodySchema) },
  responses: {
    200: jsonResponse(SentEmailSchema, "Accepted and queued."),
    403: errorResponse(
      "The sender domain is not a verified connection (`domain_not_verified`), or the key lacks write.",
    ),
    409: errorResponse("The Idempotency-Key was used with another body."),
    413: errorResponse(
      "`message_too_large`: the message exceeds 25 MB, or what its email stores exceeds 1,900,000 bytes.",
    ),
    422: errorResponse("A recipient is suppressed: `suppressed` lists them; nothing was sent."),
    429: errorResponse(
      "Rate limit (`rate_limit_exceeded`), or plan quota (`limit_exceeded` with `quota`, `current`, `limit`, `percentage`, `recommended_plan`).",
    ),
  },
});

export const relayCredentialsRoute = defineRoute("write", {
  method: "get",
  path: "/v1/emails/raw/credentials",
  tags,
  summary: "Check a key for the SMTP relay",
  description:
    "The relay's AUTH check: answers 200 when this key may send through the relay (it needs write, as POST /v1/emails/raw does), 401 for an unknown or revoked key, 403 for a read-only key or a suspended workspace. Counts against the key's rate limit like any call; the relay caches a success for 30 seconds.",
  responses: { 200: jsonResponse(RelayCredentialsSchema, "The key may send.") },
});
