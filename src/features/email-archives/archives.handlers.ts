import { dayOfLabel } from "../../lib/email-retention";
import { standardList } from "../../lib/pagination";
import { createRouter } from "../../lib/router";
import { isNotModified } from "../changelog/changelog.public";
import { listArchives } from "./archives.repo";
import { downloadArchiveRoute, listArchivesRoute } from "./archives.routes";
import { findArchiveDownload, openArchiveDownload, toEmailArchive } from "./archives.service";

export const emailArchivesRouter = createRouter()
  .openapi(listArchivesRoute, async (c) => {
    const { limit, offset, before } = c.req.valid("query");
    const beforeDay = before === undefined ? undefined : (dayOfLabel(before) ?? undefined);
    const { rows, total } = await listArchives(c.var.ctx.db, c.var.ctx.accountId, beforeDay, limit, offset);
    return c.json(standardList(rows.map(toEmailArchive), total, { limit, offset }), 200);
  })
  .openapi(downloadArchiveRoute, async (c) => {
    const archive = await findArchiveDownload(c.var.ctx, c.req.valid("param").date);
    c.header("ETag", archive.etag);
    // The file grows when a day gets a later part: a copy may be kept, but checked each time.
    c.header("Cache-Control", "private, no-cache");
    const asked = { ifNoneMatch: c.req.valid("header")["if-none-match"], ifModifiedSince: undefined };
    if (isNotModified(asked, archive.etag, 0)) return c.body(null, 304);
    const body = await openArchiveDownload(c.var.ctx, archive);
    return c.body(body, 200, {
      "Content-Type": "application/gzip",
      "Content-Disposition": `attachment; filename="emails-${archive.date}.ndjson.gz"`,
      "Content-Length": String(archive.size),
      "X-Content-Type-Options": "nosniff",
    });
  });
