import { z } from "@hono/zod-openapi";
import { offsetQuery } from "../../lib/pagination";

/**
 * The dashboard's contact group forms. They only carry strings: the values then go through the
 * API's own body schemas, so every rule and message is the API's.
 */

const Done = z.string().max(40).optional().openapi({ description: "Which confirmation to show." });

export const GroupListQuery = offsetQuery(20).extend({ done: Done });

export const GroupPath = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "grp_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

export const MemberPath = GroupPath.extend({
  customer_id: z
    .string()
    .openapi({ param: { name: "customer_id", in: "path" }, example: "cus_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});

const Count = z.coerce.number().int().min(0).max(1_000_000).optional();

export const GroupPageQuery = offsetQuery(20).extend({
  done: Done,
  added: Count.openapi({ description: "After an import: how many joined." }),
  skipped: Count.openapi({ description: "After an import: how many were members already." }),
});

const text = (max: number) => z.string().max(max);

export const GroupForm = z.object({ name: text(1000), description: text(4000).optional() });
export const MemberForm = z.object({ email: text(1000), name: text(1000).optional() });
export const ImportForm = z.object({
  csv: text(1_000_000).openapi({
    description: "Lines of `email,name`; a first line `email,name` is a header.",
  }),
});

export type GroupDraft = z.infer<typeof GroupForm>;
export type MemberDraft = z.infer<typeof MemberForm>;
