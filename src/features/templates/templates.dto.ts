import { iso, isoOrNull } from "../../lib/time";
import type { TemplateRow, VersionRow } from "./templates.repo";
import { variablesOf } from "./variables";

const status = (publishedVersionId: string | null): "draft" | "published" =>
  publishedVersionId ? "published" : "draft";

const replyToOf = (json: string) => {
  const list = JSON.parse(json) as string[];
  return list.length > 0 ? list : null;
};

const variablesShown = (version: VersionRow) =>
  variablesOf(version).map((v) => ({
    key: v.key,
    type: v.type,
    fallback_value: v.fallback_value ?? null,
    created_at: iso(version.createdAt),
    updated_at: iso(version.updatedAt),
  }));

/** Resend's template object, showing its current version. */
export const toTemplate = (template: TemplateRow, version: VersionRow) => ({
  object: "template" as const,
  id: template.id,
  current_version_id: template.currentVersionId,
  alias: template.alias,
  name: template.name,
  created_at: iso(template.createdAt),
  updated_at: iso(template.updatedAt),
  status: status(template.publishedVersionId),
  published_at: isoOrNull(template.publishedAt),
  from: version.from,
  subject: version.subject,
  reply_to: replyToOf(version.replyTo),
  html: version.html,
  text: version.text,
  variables: variablesShown(version),
  has_unpublished_versions: version.publishedAt === null,
  // Only where layouts are used: a Resend client's templates keep exactly Resend's fields.
  ...(template.type === "layout" ? { type: template.type } : {}),
  ...(version.layoutId ? { layout_id: version.layoutId } : {}),
});

export const toTemplateListItem = (row: {
  id: string;
  name: string;
  alias: string | null;
  publishedVersionId: string | null;
  publishedAt: number | null;
  createdAt: number;
  updatedAt: number;
}) => ({
  id: row.id,
  name: row.name,
  status: status(row.publishedVersionId),
  published_at: isoOrNull(row.publishedAt),
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
  alias: row.alias,
});

type VersionSummaryRow = Pick<
  VersionRow,
  "id" | "templateId" | "name" | "subject" | "from" | "publishedAt" | "createdAt" | "updatedAt"
>;

export const toVersionSummary = (row: VersionSummaryRow) => ({
  object: "template_version" as const,
  id: row.id,
  template_id: row.templateId,
  status: (row.publishedAt === null ? "draft" : "published") as "draft" | "published",
  name: row.name,
  subject: row.subject,
  from: row.from,
  published_at: isoOrNull(row.publishedAt),
  created_at: iso(row.createdAt),
  updated_at: iso(row.updatedAt),
});

export const toVersion = (row: VersionRow) => ({
  ...toVersionSummary(row),
  layout_id: row.layoutId,
  reply_to: replyToOf(row.replyTo),
  html: row.html,
  text: row.text,
  variables: variablesShown(row),
});

/** Resend's list: one row more than the page was read to tell `has_more`; `before` pages come reversed. */
export function cursorPage<R, T>(rows: R[], limit: number, reversed: boolean, shown: (row: R) => T) {
  const page = rows.slice(0, limit);
  return {
    object: "list" as const,
    data: (reversed ? page.reverse() : page).map(shown),
    has_more: rows.length > limit,
  };
}
