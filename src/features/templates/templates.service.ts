import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { type Db, runBatch } from "../../db/client";
import { templates, templateVersions } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { cursorPage, toTemplate, toTemplateListItem, toVersion, toVersionSummary } from "./templates.dto";
import {
  findTemplateWithVersion,
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
  TemplateVariableInput,
  UpdateTemplateInput,
} from "./templates.schemas";
import { assertMarkup } from "./variables";

export interface TemplateContext {
  db: Db;
  accountId: string;
  now: number;
}

type Found = { template: TemplateRow; version: VersionRow };

export const templateNotFound = (ref: string) => notFound(`Template ${ref}`);
export const versionNotFound = (ref: string, id: string) => notFound(`Version ${id} of template ${ref}`);

/** The template `ref` (id or alias) names, with the version `which` names (404 for either). */
export async function templateOf(ctx: TemplateContext, ref: string, which: WhichVersion = "current") {
  const found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, which);
  if (!found) throw templateNotFound(ref);
  if (!found.version) throw versionNotFound(ref, typeof which === "object" ? which.id : which);
  return found as Found;
}

const ref = (id: string) => ({ object: "template" as const, id });

const storedVariables = (variables: TemplateVariableInput[]) =>
  JSON.stringify(
    variables.map((v) => ({ key: v.key, type: v.type, fallback_value: v.fallback_value ?? null })),
  );

const replyToJson = (value: string | string[] | null | undefined) =>
  JSON.stringify(value === null || value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The version columns an input sets (only those it names). */
function contentChanges(input: UpdateTemplateInput): Partial<VersionRow> {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.html !== undefined ? { html: input.html } : {}),
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.from !== undefined ? { from: input.from } : {}),
    ...(input.reply_to !== undefined ? { replyTo: replyToJson(input.reply_to) } : {}),
    ...(input.variables !== undefined ? { variables: storedVariables(input.variables) } : {}),
  };
}

const aliasTaken = (alias: string | null | undefined) =>
  conflict("alias_taken", "Alias taken", `Another template of this workspace has the alias ${alias}.`);

async function writing<T>(alias: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "templates.account_id, templates.alias")) throw aliasTaken(alias);
    throw error;
  }
}

function newDraft(
  ctx: TemplateContext,
  templateId: string,
  content: Omit<
    VersionRow,
    "id" | "accountId" | "templateId" | "publishedAt" | "revision" | "createdAt" | "updatedAt"
  >,
): VersionRow {
  return {
    id: newId("tpv"),
    accountId: ctx.accountId,
    templateId,
    ...content,
    publishedAt: null,
    revision: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
}

function insertTemplate(ctx: TemplateContext, name: string, alias: string | null, version: VersionRow) {
  const template: TemplateRow = {
    id: version.templateId,
    accountId: ctx.accountId,
    name,
    alias,
    currentVersionId: version.id,
    publishedVersionId: null,
    publishedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  return writing(alias, () =>
    ctx.db.batch([
      ctx.db.insert(templates).values(template),
      ctx.db.insert(templateVersions).values(version),
    ]),
  );
}

export async function createTemplate(ctx: TemplateContext, input: CreateTemplateInput) {
  const version = newDraft(ctx, newId("tpl"), {
    name: input.name,
    subject: input.subject ?? null,
    html: input.html,
    text: input.text ?? null,
    from: input.from ?? null,
    replyTo: replyToJson(input.reply_to),
    variables: storedVariables(input.variables ?? []),
  });
  await insertTemplate(ctx, input.name, input.alias ?? null, version);
  return ref(version.templateId);
}

export async function getTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  return toTemplate(template, version);
}

export async function listTemplates(ctx: TemplateContext, page: CursorQuery) {
  const rows = await templatePageQuery(ctx.db, ctx.accountId, page);
  return cursorPage(rows, page.limit, Boolean(page.before), toTemplateListItem);
}

/** A published version is never changed: an edit makes a new draft from it. */
const insertVersionIf = (row: VersionRow, condition: SQL) => sql`
  INSERT INTO template_versions (id, account_id, template_id, name, subject, html, text, from_address,
    reply_to, variables, published_at, revision, created_at, updated_at)
  SELECT ${row.id}, ${row.accountId}, ${row.templateId}, ${row.name}, ${row.subject}, ${row.html}, ${row.text},
    ${row.from}, ${row.replyTo}, ${row.variables}, NULL, 0, ${row.createdAt}, ${row.updatedAt}
  WHERE ${condition}`;

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

const contentOf = (version: VersionRow) => ({
  name: version.name,
  subject: version.subject,
  html: version.html,
  text: version.text,
  from: version.from,
  replyTo: version.replyTo,
  variables: version.variables,
});

export async function updateTemplate(ctx: TemplateContext, idOrAlias: string, input: UpdateTemplateInput) {
  const found = await templateOf(ctx, idOrAlias);
  const changes = contentChanges(input);
  // Nothing to change makes no draft of a published template.
  if (Object.keys(changes).length === 0 && input.alias === undefined) return ref(found.template.id);
  return edit(ctx, found, changes, input.alias);
}

/**
 * Publishes the current version after checking its markup (422 with line and column). The
 * version is marked only if it is still the revision that was checked.
 */
export async function publishTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  if (version.publishedAt !== null) return ref(template.id);
  assertMarkup(template.id, version, true);
  const [marked] = await runBatch(ctx.db, [
    ctx.db
      .update(templateVersions)
      .set({ publishedAt: ctx.now, updatedAt: ctx.now })
      .where(
        and(
          ofVersion(ctx.accountId, version.id),
          isNull(templateVersions.publishedAt),
          eq(templateVersions.revision, version.revision),
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
  if (marked?.meta.changes !== 1) throw changed();
  return ref(template.id);
}

/** A new draft template with the current version's content, no alias (aliases are unique). */
export async function duplicateTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template, version } = await templateOf(ctx, idOrAlias);
  const name = `${template.name} (copy)`.slice(0, 200);
  const draft = newDraft(ctx, newId("tpl"), { ...contentOf(version), name });
  await insertTemplate(ctx, name, null, draft);
  return ref(draft.templateId);
}

/** Removes a template and its versions; emails built from it keep their content and its ids. */
export async function removeTemplate(ctx: TemplateContext, idOrAlias: string) {
  const { template } = await templateOf(ctx, idOrAlias);
  const [, deleted] = await runBatch(ctx.db, [
    ctx.db
      .delete(templateVersions)
      .where(
        and(eq(templateVersions.accountId, ctx.accountId), eq(templateVersions.templateId, template.id)),
      ),
    ctx.db.delete(templates).where(ofTemplate(ctx.accountId, template.id)),
  ]);
  if (deleted?.meta.changes !== 1) throw templateNotFound(idOrAlias);
  return { ...ref(template.id), deleted: true as const };
}

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
