import { and, eq, isNull, sql } from "drizzle-orm";
import { runBatch } from "../../db/client";
import { templates, templateVersions } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { assertLayoutFields } from "./layouts";
import {
  contentChanges,
  contentOf,
  insertTemplate,
  insertVersionIf,
  layoutIdOf,
  layoutPublished,
  newDraft,
  publishedLayout,
  replyToJson,
  storedVariables,
  type TemplateContext,
  templateNotFound,
  writing,
} from "./template-writes";
import { cursorPage, toTemplate, toTemplateListItem, toVersion, toVersionSummary } from "./templates.dto";
import {
  findTemplateWithVersion,
  layoutUnused,
  layoutUsersQuery,
  ofTemplate,
  ofVersion,
  type TemplateRow,
  templatePageQuery,
  type VersionRow,
  versionPageQuery,
  type WhichVersion,
} from "./templates.repo";
import type {
  CreateTemplateInput,
  CursorQuery,
  TemplateListQuery,
  UpdateTemplateInput,
} from "./templates.schemas";
import { assertMarkup } from "./variables";

export { type TemplateContext, templateNotFound };

type Found = { template: TemplateRow; version: VersionRow };

export const versionNotFound = (ref: string, id: string) => notFound(`Version ${id} of template ${ref}`);

/** The template `ref` (id or alias) names, with the version `which` names (404 for either). */
export async function templateOf(ctx: TemplateContext, ref: string, which: WhichVersion = "current") {
  const found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, which);
  if (!found) throw templateNotFound(ref);
  if (!found.version) throw versionNotFound(ref, typeof which === "object" ? which.id : which);
  return found as Found;
}

const ref = (id: string) => ({ object: "template" as const, id });

export async function createTemplate(ctx: TemplateContext, input: CreateTemplateInput) {
  const type = input.type ?? "template";
  if (type === "layout") assertLayoutFields(input);
  const version = newDraft(ctx, newId("tpl"), {
    name: input.name,
    subject: input.subject ?? null,
    html: input.html,
    text: input.text ?? null,
    from: input.from ?? null,
    replyTo: replyToJson(input.reply_to),
    variables: storedVariables(input.variables ?? []),
    layoutId: (await layoutIdOf(ctx, input.layout_id)) ?? null,
  });
  await insertTemplate(ctx, { name: input.name, alias: input.alias ?? null, type }, version);
  return ref(version.templateId);
}

export async function getTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  return toTemplate(template, version);
}

export async function listTemplates(ctx: TemplateContext, page: TemplateListQuery) {
  const rows = await templatePageQuery(ctx.db, ctx.accountId, page);
  return cursorPage(rows, page.limit, Boolean(page.before), toTemplateListItem);
}

const changed = () =>
  conflict(
    "template_changed",
    "Template changed",
    "The template was published or edited meanwhile; read it and try again.",
  );

/**
 * Edits the current version: a draft in place; a published one by a new draft copied from it.
 * Each write is conditional on the version still being what was read, so a concurrent publish or
 * edit answers 409 rather than being lost.
 */
async function edit(ctx: TemplateContext, found: Found, changes: Partial<VersionRow>, alias?: string | null) {
  const { template, version } = found;
  const own = ofTemplate(ctx.accountId, template.id);
  const templateSet = {
    ...(changes.name !== undefined ? { name: changes.name } : {}),
    ...(alias !== undefined ? { alias } : {}),
    updatedAt: ctx.now,
  };
  const results = await writing(alias, async () => {
    if (version.publishedAt === null) {
      const stillDraft = sql`EXISTS (SELECT 1 FROM template_versions WHERE id = ${version.id} AND published_at IS NULL)`;
      return runBatch(ctx.db, [
        ctx.db
          .update(templates)
          .set(templateSet)
          .where(and(own, eq(templates.currentVersionId, version.id), stillDraft)),
        ctx.db
          .update(templateVersions)
          .set({ ...changes, revision: sql`${templateVersions.revision} + 1`, updatedAt: ctx.now })
          .where(and(ofVersion(ctx.accountId, version.id), isNull(templateVersions.publishedAt))),
      ]);
    }
    const draft = newDraft(ctx, template.id, { ...contentOf(version), ...changes });
    return runBatch(ctx.db, [
      ctx.db
        .update(templates)
        .set({ ...templateSet, currentVersionId: draft.id })
        .where(and(own, eq(templates.currentVersionId, version.id))),
      insertVersionIf(
        draft,
        sql`EXISTS (SELECT 1 FROM templates WHERE id = ${template.id} AND current_version_id = ${draft.id})`,
      ),
    ]);
  });
  if (results[0]?.meta.changes !== 1) throw changed();
  return ref(template.id);
}

export async function updateTemplate(ctx: TemplateContext, idOrAlias: string, input: UpdateTemplateInput) {
  const found = await templateOf(ctx, idOrAlias);
  if (found.template.type === "layout") assertLayoutFields(input);
  const changes = contentChanges(input, await layoutIdOf(ctx, input.layout_id));
  // Nothing to change makes no draft of a published template.
  if (Object.keys(changes).length === 0 && input.alias === undefined) return ref(found.template.id);
  return edit(ctx, found, changes, input.alias);
}

/**
 * Publishes the current version after checking its markup (422 with line and column) and, when it
 * names a layout, that the layout is published (422). The version is marked only if it is still
 * the revision that was checked and the layout is still published (a layout's removal is written
 * under the opposite condition: one of the two comes first).
 */
export async function publishTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  if (version.publishedAt !== null) return ref(template.id);
  assertMarkup(template.id, version, true, template.type === "layout");
  const { layoutId } = version;
  if (layoutId) await publishedLayout(ctx, template.id, layoutId);
  const [marked] = await runBatch(ctx.db, [
    ctx.db
      .update(templateVersions)
      .set({ publishedAt: ctx.now, updatedAt: ctx.now })
      .where(
        and(
          ofVersion(ctx.accountId, version.id),
          isNull(templateVersions.publishedAt),
          eq(templateVersions.revision, version.revision),
          layoutId ? layoutPublished(ctx.accountId, layoutId) : undefined,
        ),
      ),
    ctx.db
      .update(templates)
      .set({ publishedVersionId: version.id, publishedAt: ctx.now, updatedAt: ctx.now })
      .where(
        and(
          ofTemplate(ctx.accountId, template.id),
          eq(templates.currentVersionId, version.id),
          sql`EXISTS (SELECT 1 FROM template_versions WHERE id = ${version.id} AND published_at = ${ctx.now} AND revision = ${version.revision})`,
        ),
      ),
  ]);
  if (marked?.meta.changes !== 1) {
    if (layoutId) await publishedLayout(ctx, template.id, layoutId);
    throw changed();
  }
  return ref(template.id);
}

/** A new draft template with the current version's content, no alias (aliases are unique). */
export async function duplicateTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  const name = `${template.name} (copy)`.slice(0, 200);
  const draft = newDraft(ctx, newId("tpl"), { ...contentOf(version), name });
  await insertTemplate(ctx, { name, alias: null, type: template.type }, draft);
  return ref(draft.templateId);
}

/**
 * Removes a template and its versions; emails built from it keep their content and its ids. A
 * layout that a template's published version uses is 409 (drafts naming it may stay: they cannot
 * be published until they name another); the check is the delete's own condition.
 */
export async function removeTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template } = await templateOf(ctx, idOrAlias);
  const isLayout = template.type === "layout";
  const [deleted] = await runBatch(ctx.db, [
    ctx.db
      .delete(templates)
      .where(
        and(
          ofTemplate(ctx.accountId, template.id),
          isLayout ? layoutUnused(ctx.accountId, template.id) : undefined,
        ),
      ),
    ctx.db
      .delete(templateVersions)
      .where(
        and(
          eq(templateVersions.accountId, ctx.accountId),
          eq(templateVersions.templateId, template.id),
          sql`NOT EXISTS (SELECT 1 FROM templates WHERE id = ${template.id})`,
        ),
      ),
  ]);
  if (deleted?.meta.changes !== 1) {
    const users = isLayout ? await layoutUsersQuery(ctx.db, ctx.accountId, template.id) : [];
    if (users.length > 0) throw layoutInUse(template.id, users);
    throw templateNotFound(idOrAlias);
  }
  return { ...ref(template.id), deleted: true as const };
}

const layoutInUse = (layoutId: string, users: Array<{ id: string; name: string }>) =>
  conflict(
    "layout_in_use",
    "Layout in use",
    `Layout ${layoutId} frames the published version of ${users.map((u) => `${u.id} (${u.name})`).join(", ")}${users.length === 5 ? " and maybe more" : ""}: publish them with another layout_id (or none) first.`,
  );

export async function listVersions(ctx: TemplateContext, idOrAlias: string, page: CursorQuery) {
  const { template } = await templateOf(ctx, idOrAlias);
  const rows = await versionPageQuery(ctx.db, ctx.accountId, template.id, page);
  return cursorPage(rows, page.limit, Boolean(page.before), toVersionSummary);
}

export async function getVersion(ctx: TemplateContext, idOrAlias: string, versionId: string) {
  return toVersion((await templateOf(ctx, idOrAlias, { id: versionId })).version);
}

/** Makes a version's content the draft again (publish it to send it). */
export async function restoreVersion(ctx: TemplateContext, idOrAlias: string, versionId: string) {
  const { version: restored } = await templateOf(ctx, idOrAlias, { id: versionId });
  const current = await templateOf(ctx, idOrAlias);
  if (current.version.id === restored.id) return ref(current.template.id);
  return edit(ctx, current, contentOf(restored));
}
