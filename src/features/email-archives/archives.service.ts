import { sha256Hex } from "../../lib/crypto";
import { ARCHIVE_RETENTION_DAYS, archivePartKey, dayLabel, dayOfLabel } from "../../lib/email-retention";
import { AppError } from "../../lib/errors";
import { log } from "../../lib/logger";
import type { RequestContext } from "../../lib/request-context";
import { iso } from "../../lib/time";
import { type ArchivedPart, archivedPartsQuery, type EmailArchiveRow } from "./archives.repo";
import { concatenatedObjects } from "./archives.stream";

export const archiveDownloadPath = (date: string) => `/v1/emails/archives/${date}`;

export function toEmailArchive(row: EmailArchiveRow) {
  const date = dayLabel(row.day);
  return {
    object: "email_archive" as const,
    date,
    emails: row.emails,
    size: row.bytes,
    parts: row.parts,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    download_url: archiveDownloadPath(date),
  };
}

/** A day's download as its rows describe it, before any byte is read from R2. */
export interface ArchiveDownload {
  date: string;
  keys: string[];
  size: number;
  etag: string;
}

/**
 * A strong ETag of exactly what the file is made of: each archived part's number, token and R2
 * ETag. A part is never rewritten (its token is in its key), so the file changes only when a
 * part is added, and then the tag changes too.
 */
async function etagOf(parts: ArchivedPart[]): Promise<string> {
  const lines = parts.map((p) => `${p.part}:${p.token}:${p.etag ?? ""}`);
  return `"${await sha256Hex(lines.join("\n"))}"`;
}

/** The workspace's archive of the day `date` names (`YYYY-MM-DD`, validated by the route). */
export async function findArchiveDownload(ctx: RequestContext, date: string): Promise<ArchiveDownload> {
  const day = dayOfLabel(date);
  const parts = day === null ? [] : await archivedPartsQuery(ctx.db, ctx.accountId, day);
  if (day === null || parts.length === 0) {
    throw new AppError(
      404,
      "archive_not_found",
      "No archive for this day",
      `No emails of ${date} were archived (yet). A day is archived once it is past the workspace's email retention, and its archive is kept ${ARCHIVE_RETENTION_DAYS} days.`,
    );
  }
  return {
    date,
    keys: parts.map((p) => archivePartKey(ctx.accountId, day, p.part, p.token)),
    size: parts.reduce((sum, p) => sum + p.bytes, 0),
    etag: await etagOf(parts),
  };
}

/**
 * The file's bytes as a stream of the declared size. The first part is fetched before answering:
 * when it is gone, nothing has been sent yet and the answer is a clear 503 `archive_unavailable`.
 * A later part is fetched only when the stream reaches it (checking every part first would cost a
 * round trip each before the first byte, and would still race with its deletion), so one gone by
 * then breaks the transfer instead (archives.stream.ts): never a silently shorter file.
 */
export async function openArchiveDownload(
  ctx: RequestContext,
  archive: ArchiveDownload,
): Promise<ReadableStream<Uint8Array>> {
  const [firstKey = ""] = archive.keys;
  const first = await ctx.env.FILES.get(firstKey);
  if (!first) {
    log.error("email_archive_part_missing", { key: firstKey });
    throw new AppError(
      503,
      "archive_unavailable",
      "Archive unavailable",
      `The archive of ${archive.date} cannot be read right now; try again later.`,
    );
  }
  return concatenatedObjects(ctx.env.FILES, archive.keys, first).pipeThrough(
    new FixedLengthStream(archive.size),
  );
}
