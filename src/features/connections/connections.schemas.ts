import { z } from "@hono/zod-openapi";
import { metaListSchema } from "../../lib/pagination";

export const DnsRecordSchema = z
  .object({
    purpose: z.enum(["dkim", "spf", "dmarc", "inbound"]),
    type: z.enum(["TXT", "MX"]),
    name: z.string().openapi({ example: "sm3k9x2a._domainkey.example.com" }),
    value: z.string(),
    priority: z.number().int().optional().openapi({ description: "MX records only." }),
    required: z.boolean().openapi({ description: "Whether sending needs it (DKIM and SPF do)." }),
    status: z
      .enum(["unchecked", "verified", "missing", "mismatch"])
      .openapi({ description: "What the last verification found." }),
  })
  .openapi("DnsRecord");

export const ConnectionSchema = z
  .object({
    id: z.string().openapi({ example: "con_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    domain: z.string().openapi({ example: "example.com" }),
    status: z.enum(["pending", "verified", "failed"]),
    dns_records: z.array(DnsRecordSchema),
    last_checked_at: z.string().nullable(),
    verified_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Connection");

export const ConnectionListSchema = metaListSchema(ConnectionSchema, "ConnectionList");

const DOMAIN = /^(?=.{4,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;

export const CreateConnectionBodySchema = z
  .object({
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(DOMAIN, "must be a domain name such as example.com")
      .openapi({ example: "example.com" }),
  })
  .strict()
  .openapi("CreateConnectionRequest");

export const ConnectionParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "con_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
