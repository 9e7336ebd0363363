import { z } from "@hono/zod-openapi";
import { CHANGELOG_CATEGORIES, CHANGELOG_STATUSES } from "../../db/schema/changelog";
import { singleLine } from "../../lib/input";
import { offsetQuery, standardListSchema } from "../../lib/pagination";
import { utf8Length } from "../../lib/text";

export const MAX_TITLE_LENGTH = 200;
/** The Markdown's cap, in UTF-8 bytes (100 KB). */
export const MAX_BODY_BYTES = 100_000;

const EXAMPLE_ID = "chg_01JD3Z6X8Y9ABCDEFGHJKMNPQR";

const Category = z.enum(CHANGELOG_CATEGORIES).openapi({ example: "new" });
const Status = z.enum(CHANGELOG_STATUSES).openapi({ example: "draft" });

const Title = singleLine(MAX_TITLE_LENGTH).openapi({
  description: `One line, 1 to ${MAX_TITLE_LENGTH} characters after trimming.`,
  example: "Webhooks retry for 24 hours",
});

const BodyMarkdown = z
  .string()
  .refine((text) => utf8Length(text) <= MAX_BODY_BYTES, {
    message: `must be at most ${MAX_BODY_BYTES} bytes (UTF-8)`,
  })
  .openapi({
    description: `Markdown with GitHub's extensions (tables, task lists, strikethrough, autolinks), at most ${MAX_BODY_BYTES} bytes. Raw HTML in it is not rendered.`,
    example: "Failed deliveries are now retried **for a whole day**.",
  });

const PublishedAt = z.iso.datetime({ offset: true }).openapi({
  description:
    "For `scheduled`: when it publishes itself (must be in the future). For `published`: the publication time shown (now or earlier; now when left out).",
  example: "2026-12-01T09:00:00.000Z",
});

export const ChangelogEntrySchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    title: z.string(),
    body_markdown: z.string(),
    body_html: z.string().openapi({ description: "`body_markdown` rendered and sanitized when written." }),
    category: Category,
    status: Status,
    published_at: z.string().nullable().openapi({ description: "Null for drafts." }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ChangelogEntry");

export const ChangelogListSchema = standardListSchema(ChangelogEntrySchema, "ChangelogEntryList");

export const ChangelogListQuerySchema = offsetQuery(20).extend({
  status: Status.optional().openapi({ description: "Only entries in this status." }),
  category: Category.optional().openapi({ description: "Only entries of this category." }),
});

export const CreateChangelogBodySchema = z
  .object({
    title: Title,
    body_markdown: BodyMarkdown.default(""),
    category: Category,
    status: Status.default("draft"),
    published_at: PublishedAt.optional(),
  })
  .strict()
  .openapi("CreateChangelogEntryRequest");

export const UpdateChangelogBodySchema = z
  .object({
    title: Title,
    body_markdown: BodyMarkdown,
    category: Category,
    status: Status,
    published_at: PublishedAt,
  })
  .partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, { message: "name at least one field to change" })
  .openapi("UpdateChangelogEntryRequest");

export type CreateChangelogInput = z.infer<typeof CreateChangelogBodySchema>;
export type UpdateChangelogInput = z.infer<typeof UpdateChangelogBodySchema>;
export type ChangelogListQuery = z.infer<typeof ChangelogListQuerySchema>;

export const ChangelogParamsSchema = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: EXAMPLE_ID }),
});

export const AccountParamsSchema = z.object({
  account_id: z
    .string()
    .openapi({ param: { name: "account_id", in: "path" }, example: "acc_01JD3Z6X8Y9ABCDEFGHJKMNPQR" }),
});
