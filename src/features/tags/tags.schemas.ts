import { z } from "@hono/zod-openapi";
import { singleLine } from "../../lib/input";
import { countedListSchema } from "../../lib/pagination";

const Name = singleLine(50).openapi({
  description: "Unique in its inbox whatever its case.",
  example: "Billing",
});

const Color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a color written #rrggbb, such as #3b82f6")
  .toLowerCase()
  .openapi({ description: "`#rrggbb`, stored lowercase.", example: "#3b82f6" });

export const TagSchema = z
  .object({
    id: z.string().openapi({ example: "tag_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    inbox_id: z.string().openapi({ example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: z.string().openapi({ example: "Billing" }),
    color: z.string().nullable().openapi({ example: "#3b82f6" }),
    created_at: z.string(),
  })
  .openapi("Tag");

export const TagListSchema = countedListSchema(TagSchema, "TagList");

export const TagListQuerySchema = z.object({
  inbox_id: z.string().optional().openapi({ description: "Only the tags of this inbox." }),
});

export const CreateTagBodySchema = z
  .object({
    inbox_id: z.string().min(1).openapi({ example: "inb_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
    name: Name,
    color: Color.nullable().optional(),
  })
  .strict()
  .openapi("CreateTagRequest");

export const UpdateTagBodySchema = z
  .object({ name: Name, color: Color.nullable().openapi({ description: "`null` clears it." }) })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateTagRequest");

export type CreateTagInput = z.infer<typeof CreateTagBodySchema>;
export type UpdateTagInput = z.infer<typeof UpdateTagBodySchema>;

export const TagParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "tag_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
