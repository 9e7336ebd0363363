import { z } from "@hono/zod-openapi";
import { ARCHIVE_RETENTION_DAYS } from "../../lib/email-retention";
import { defineRoute, errorResponse, jsonResponse } from "../../lib/openapi";
import {
  EmailArchiveListQuerySchema,
  EmailArchiveListSchema,
  EmailArchiveParamsSchema,
  IfNoneMatchHeaderSchema,
} from "./archives.schemas";

const tags = ["Emails"];

const WHAT_IS_ARCHIVED = `Before the emails of a UTC day are deleted (once the day is past the workspace's email retention: its plan's maximum or less, as the workspace chose), they are written to that day's archive, which is kept ${ARCHIVE_RETENTION_DAYS} days (\`ARCHIVE_RETENTION_DAYS\`) whatever the plan and counts toward the workspace's storage.`;

const FILE_FORMAT = [
  "The file is gzip-compressed NDJSON: one line per email, a JSON object with the email's fields as GET /v1/emails/{id} shows them, without `html`, `text`, `headers` and attachment bytes, plus `recipients` (each with its delivery outcome) and `events`.",
  "It is one gzip file made of one or more gzip members (RFC 1952 §2.2), one per part of at most 1,000 emails (a day of more emails, or one with an email still queued when the day was first archived, has several): `gunzip`, zlib (Node's `zlib.gunzipSync`, also under Workers' `node:zlib`) and Python's `gzip` read it whole. The WHATWG `DecompressionStream` of Workers stops with an error at the end of the first member: there, use `node:zlib`. Each email is in exactly one member, once.",
].join(" ");

export const listArchivesRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/archives",
  tags,
  summary: "List email archives",
  description: [
    `The workspace's archived days, newest first, each with its number of emails, the size of its download in bytes and the path that downloads it. ${WHAT_IS_ARCHIVED}`,
    "A day may get more emails after it is first listed (an email still queued when its day was archived is archived once it is done): its `emails`, `size`, `parts` and `updated_at` grow. `before` pages by date, unshifted by days archived meanwhile; `offset` works as on every list.",
  ].join("\n\n"),
  request: { query: EmailArchiveListQuerySchema },
  responses: { 200: jsonResponse(EmailArchiveListSchema, "A page of archived days.") },
});

export const downloadArchiveRoute = defineRoute("read", {
  method: "get",
  path: "/v1/emails/archives/{date}",
  tags,
  summary: "Download an email archive",
  description: [
    `The archive of one UTC day (\`YYYY-MM-DD\`): \`Content-Type: application/gzip\`, \`Content-Disposition: attachment; filename="emails-<date>.ndjson.gz"\`, \`Content-Length\`, and a strong \`ETag\` that changes only when emails are added to the day; \`If-None-Match\` with it answers 304 with no body. Read it with \`curl ... | gunzip\`. ${WHAT_IS_ARCHIVED}`,
    FILE_FORMAT,
    "A date that is not a real `YYYY-MM-DD` day is a 400. A day without an archive (no emails that day, not yet past the retention, or archived more than the archive retention ago) is a 404 `archive_not_found`. A 503 `archive_unavailable` means the file cannot be read at the moment: try again. The file is streamed: should storage fail in the middle, the transfer breaks off short of `Content-Length`, never a shorter file that looks complete.",
  ].join("\n\n"),
  request: { params: EmailArchiveParamsSchema, headers: IfNoneMatchHeaderSchema },
  responses: {
    200: {
      description: "The day's archive, gzip-compressed NDJSON.",
      headers: z.object({
        ETag: z.string().openapi({ description: "A strong tag of the file's contents." }),
        "Content-Length": z.string().openapi({ description: "The file's size in bytes." }),
        "Content-Disposition": z
          .string()
          .openapi({ example: 'attachment; filename="emails-2026-10-01.ndjson.gz"' }),
      }),
      content: { "application/gzip": { schema: z.string().openapi({ format: "binary" }) } },
    },
    304: { description: "The client's copy (`If-None-Match`) is current; no body." },
    404: errorResponse("No archive for this day (`archive_not_found`)."),
    503: errorResponse("The archive cannot be read at the moment (`archive_unavailable`); try again."),
  },
});
