import { z } from "@hono/zod-openapi";
import { PERMISSIONS } from "../../auth/permissions";
import { singleLine } from "../../lib/input";
import { metaListSchema } from "../../lib/pagination";

const Permission = z.enum(PERMISSIONS).openapi({ description: "read, write or admin.", example: "write" });

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string().openapi({ example: "Production backend" }),
    key_prefix: z
      .string()
      .openapi({ description: "The token's first 10 characters.", example: "sk_3fA9bQ2" }),
    permission: Permission,
    is_active: z.boolean().openapi({ description: "`false` once revoked." }),
    last_used_at: z.string().nullable().openapi({ description: "Last use, within a minute of the truth." }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("ApiKey");

export const ApiKeyListSchema = metaListSchema(ApiKeySchema, "ApiKeyList");

export const CreateKeyBodySchema = z
  .object({
    name: singleLine(100).openapi({ example: "Production backend" }),
    permission: Permission,
  })
  .strict()
  .openapi("CreateKeyRequest");

export const CreatedKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    token: z
      .string()
      .openapi({ description: "The full key. Shown only in this response.", example: "sk_..." }),
    key_prefix: z.string(),
    permission: Permission,
    created_at: z.string(),
    warning: z.string(),
  })
  .openapi("CreatedKey");

export type CreateKeyInput = z.infer<typeof CreateKeyBodySchema>;
