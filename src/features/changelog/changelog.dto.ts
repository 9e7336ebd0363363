import { iso, isoOrNull } from "../../lib/time";
import type { ChangelogRow } from "./changelog.repo";

export function toChangelogEntry(row: ChangelogRow) {
  return {
    id: row.id,
    title: row.title,
    body_markdown: row.bodyMarkdown,
    body_html: row.bodyHtml,
    category: row.category,
    status: row.status,
    published_at: isoOrNull(row.publishedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
