import { conflict } from "../../lib/errors";
import type { TemplateType } from "./layouts";
import { cursorPage, toTemplate, toTemplateListItem } from "./templates.dto";
import { templatePageQuery } from "./templates.repo";
import type { CursorQuery } from "./templates.schemas";
import { type TemplateContext, templateOf } from "./templates.service";

// What the dashboard's template pages need beside the API's service functions.

/**
 * GET /v1/templates' page with, for the dashboard's list, whether each template has changes not
 * published: its current version is not the published one (a draft never published, or an edit
 * or a restore since the last publish). The same query on the same index.
 */
export async function listTemplateOverview(
  ctx: TemplateContext,
  page: CursorQuery & { type?: TemplateType },
) {
  const rows = await templatePageQuery(ctx.db, ctx.accountId, page);
  return cursorPage(rows, page.limit, Boolean(page.before), (row) => ({
    ...toTemplateListItem(row),
    has_unpublished_versions: row.currentVersionId !== row.publishedVersionId,
  }));
}

/** How many layouts a template's layout select offers (newest first); one named beyond is added to it. */
export const LAYOUT_CHOICES = 100;

/**
 * The workspace's layouts for a template's layout select, published or not (a template naming an
 * unpublished one cannot be published: 422): GET /v1/templates?type=layout's query and index.
 */
export async function layoutChoices(ctx: TemplateContext) {
  const rows = await templatePageQuery(ctx.db, ctx.accountId, { type: "layout", limit: LAYOUT_CHOICES });
  return rows
    .slice(0, LAYOUT_CHOICES)
    .map((row) => ({ id: row.id, name: row.name, published: row.publishedVersionId !== null }));
}

export type LayoutChoice = Awaited<ReturnType<typeof layoutChoices>>[number];

/** Which version, at which revision, a page showed: what its save or publish acts on. */
export interface SeenVersion {
  versionId: string;
  revision: number;
}

/**
 * 409 `template_changed` (the API's answer to a raced write) when the template's current version
 * is no longer the one a page showed: another tab or person saved, published or restored since.
 * A page's save or publish thus never overwrites, or publishes, content its user has not seen.
 * Answers the template as GET /v1/templates/{id} shows it.
 */
export async function assertUnchanged(ctx: TemplateContext, idOrAlias: string, seen: SeenVersion) {
  const found = await templateOf(ctx, idOrAlias);
  const { version } = found;
  if (version.id !== seen.versionId || version.revision !== seen.revision) {
    throw conflict(
      "template_changed",
      "Template changed",
      "The template was saved, published or restored elsewhere since this page was loaded; reload it and apply your changes again.",
    );
  }
  return toTemplate(found.template, version);
}
