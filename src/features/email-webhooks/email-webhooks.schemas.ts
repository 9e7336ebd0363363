import { z } from "@hono/zod-openapi";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { EMAIL_EVENT_NAMES, MAX_ATTEMPTS } from "../../webhooks/email-events";

const ID_EXAMPLE = "whk_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

/**
 * Endpoints per workspace, disabled ones included: each one turns every email event into one more
 * request, retried up to 8 times. The same as the webhooks of an inbox.
 */
export const MAX_EMAIL_WEBHOOK_ENDPOINTS = 10;

const EventsSchema = z
  .array(z.enum(EMAIL_EVENT_NAMES))
  .min(1, "name at least one event")
  .max(EMAIL_EVENT_NAMES.length)
  .refine((events) => new Set(events).size === events.length, "must not repeat an event")
  .openapi({
    description: "The events this endpoint receives.",
    example: ["email.delivered", "email.bounced"],
  });

export const EmailWebhookSchema = z
  .object({
    id: z.string().openapi({ example: ID_EXAMPLE }),
    url: z.string().openapi({ example: "https://example.com/hooks/email" }),
    events: z.array(z.enum(EMAIL_EVENT_NAMES)),
    enabled: z.boolean(),
    secret: z.string().nullable().openapi({
      description:
        "`whsec_` secret that signs every delivery (`X-Service-Signature`, as inbox webhooks). Stored encrypted; answered in clear to admin keys only, the keys that write endpoints (on create, get, list and update). `null` for read and write keys: they never receive a secret.",
      example: "whsec_3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    }),
    disabled_reason: z.string().nullable().openapi({
      description: "Why the service disabled the endpoint (deliveries failing for 3 days); null otherwise.",
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("EmailWebhook");

export const EmailWebhookListSchema = standardListSchema(EmailWebhookSchema, "EmailWebhookList");

export const EmailWebhookListQuerySchema = offsetQuery(50);

const UrlSchema = z.string().min(1).max(2048).openapi({ example: "https://example.com/hooks/email" });

export const CreateEmailWebhookBodySchema = z
  .object({ url: UrlSchema, events: EventsSchema, enabled: z.boolean().default(true) })
  .strict()
  .openapi("CreateEmailWebhookRequest");

export type CreateEmailWebhookInput = z.infer<typeof CreateEmailWebhookBodySchema>;

export const UpdateEmailWebhookBodySchema = z
  .object({ url: UrlSchema.optional(), events: EventsSchema.optional(), enabled: z.boolean().optional() })
  .strict()
  .refine((body) => Object.keys(body).length > 0, "send at least one of url, events, enabled")
  .openapi("UpdateEmailWebhookRequest");

export type UpdateEmailWebhookInput = z.infer<typeof UpdateEmailWebhookBodySchema>;

export const EmailWebhookParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: ID_EXAMPLE }),
});

export const DeliveryParamsSchema = EmailWebhookParamsSchema.extend({
  delivery_id: z.string().openapi({
    param: { name: "delivery_id", in: "path" },
    description: "The `event_id` of a delivery listed for this endpoint.",
    example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
  }),
});

export const ResentEventSchema = z
  .object({
    event_id: z.string().openapi({
      description: "The event's `id` and `X-Webhook-Id`: the same as the delivery resent.",
      example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    }),
    event: z.string().openapi({ example: "email.delivered" }),
  })
  .openapi("EmailWebhookResentEvent");

export const TestEventSchema = z
  .object({
    event_id: z.string().openapi({
      description: "The event's `id` and `X-Webhook-Id`.",
      example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR",
    }),
    event: z.literal("webhook.test"),
  })
  .openapi("EmailWebhookTestEvent");

export const DeliveryAttemptSchema = z
  .object({
    event_id: z.string().openapi({ example: "evt_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    event: z.string().openapi({ example: "email.delivered" }),
    attempt: z
      .number()
      .int()
      .openapi({ description: `1 to ${MAX_ATTEMPTS}.` }),
    status_code: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "The receiver's status; null when no answer came." }),
    duration_ms: z.number().int(),
    error: z.string().nullable().openapi({ description: "Why the attempt failed; null when it succeeded." }),
    created_at: z.string(),
    payload: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The envelope that was sent: `id`, `event`, `timestamp`, `data`." }),
  })
  .openapi("EmailWebhookDeliveryAttempt");

export const DeliveryListSchema = standardListSchema(DeliveryAttemptSchema, "EmailWebhookDeliveryList");
