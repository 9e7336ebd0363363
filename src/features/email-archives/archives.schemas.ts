import { z } from "@hono/zod-openapi";
import { dayOfLabel } from "../../lib/email-retention";
import { offsetQuery, standardListSchema } from "../../lib/pagination";

const DATE_EXAMPLE = "2026-10-01";

/** A UTC day as `YYYY-MM-DD` that names a real date (2026-02-30 is refused, not rolled over). */
const dateLabel = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date such as 2026-10-01 (YYYY-MM-DD)", abort: true })
  .refine((label) => dayOfLabel(label) !== null, "must be a real date (YYYY-MM-DD)");

export const EmailArchiveSchema = z
  .object({
    object: z.literal("email_archive"),
    date: z
      .string()
      .openapi({ description: "The UTC day whose emails the archive holds.", example: DATE_EXAMPLE }),
    emails: z.number().int().openapi({ description: "Emails in the archive: one line each." }),
    size: z
      .number()
      .int()
      .openapi({ description: "Bytes of the download (gzip); they count toward the workspace's storage." }),
    parts: z.number().int().openapi({
      description:
        "Gzip members the file is made of: one per part of at most 1,000 emails the retention run archived (a day of up to 1,000 emails usually has one).",
    }),
    created_at: z.string().openapi({ description: "When the day's first emails were archived." }),
    updated_at: z.string().openapi({ description: "When the day's latest part was added." }),
    download_url: z.string().openapi({
      description: "The path that downloads the file.",
      example: `/v1/emails/archives/${DATE_EXAMPLE}`,
    }),
  })
  .openapi("EmailArchive");

export const EmailArchiveListSchema = standardListSchema(EmailArchiveSchema, "EmailArchiveList");

export const EmailArchiveListQuerySchema = offsetQuery(50).extend({
  before: dateLabel.optional().openapi({
    description:
      "Only days before this one (`YYYY-MM-DD`). Pass the last `date` of a page to get the next page unshifted by days archived in between; `offset` works too.",
    example: DATE_EXAMPLE,
  }),
});

export const EmailArchiveParamsSchema = z.object({
  date: dateLabel.openapi({ param: { name: "date", in: "path" }, example: DATE_EXAMPLE }),
});

export const IfNoneMatchHeaderSchema = z.object({
  "if-none-match": z
    .string()
    .optional()
    .openapi({ description: "ETags of copies the client has: a match answers 304 with no body." }),
});
