import { z } from "@hono/zod-openapi";

/**
 * A field of a GET filter form. A form sends an untouched field as "", which means "any" here,
 * not a value to validate.
 */
export const filterField = <T extends z.ZodType>(schema: T, description: string) =>
  z
    .preprocess((value) => (value === "" ? undefined : value), schema.optional())
    .openapi({ description: `${description} Empty means any.` });

/** The `{id}` of a detail page. */
export const detailParams = (example: string) =>
  z.object({
    id: z
      .string()
      .max(64)
      .openapi({ param: { name: "id", in: "path" }, example }),
  });
