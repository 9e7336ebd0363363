import { z } from "@hono/zod-openapi";
import { idPattern } from "../../lib/ids";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

export const RequestLogSchema = z
  .object({
    id: z.string().openapi({ description: "The request id, as sent in `X-Request-Id`." }),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    duration_ms: z.number().int(),
    key_id: z.string().nullable(),
    key_prefix: z.string().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    error_code: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("RequestLog");

export const RequestLogListSchema = standardListSchema(RequestLogSchema, "RequestLogList");

export const RequestLogQuerySchema = offsetQuery(50).extend({
  status: z.coerce
    .number()
    .int()
    .min(100)
    .max(599)
    .optional()
    .openapi({ description: "Only this status code." }),
  key_id: z.string().optional().openapi({ description: "Only requests made with this key." }),
});

/** One queue message: a finished request, recorded after its response was sent. */
export const RequestLogMessageSchema = z.object({
  // Stored as the ULID's bytes (request-id-bytes.ts), so only a request id will do.
  id: z.string().regex(new RegExp(idPattern("req"))),
  account_id: z.string(),
  key_id: z.string().nullable(),
  key_prefix: z.string().nullable(),
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  error_code: z.string().nullable(),
  created_at: z.number().int(),
});

export type RequestLogMessage = z.infer<typeof RequestLogMessageSchema>;

/**
 * One queue message: the records of one isolate's flush (log-buffer.ts), checked one by one by the
 * consumer. A message that is a single record (the form before) is still read.
 */
export interface RequestLogBatchMessage {
  logs: RequestLogMessage[];
}
