import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { templates, templateVersions } from "../../db/schema";
import { conflict, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isUniqueViolation } from "../../lib/unique-violation";
import { layoutInvalid, layoutNotPublished, type TemplateType } from "./layouts";
import { findTemplateWithVersion, type TemplateRow, type VersionRow } from "./templates.repo";
import type { TemplateVariableInput, UpdateTemplateInput } from "./templates.schemas";

/** The pieces the templates service writes with: new rows, the columns an input sets, conflicts. */

export interface TemplateContext {
  db: Db;
  accountId: string;
  now: number;
}

export const templateNotFound = (ref: string) => notFound(`Template ${ref}`);

export const storedVariables = (variables: TemplateVariableInput[]) =>
  JSON.stringify(
    variables.map((v) => ({ key: v.key, type: v.type, fallback_value: v.fallback_value ?? null })),
  );

export const replyToJson = (value: string | string[] | null | undefined) =>
  JSON.stringify(value === null || value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** The version columns an input sets (only those it names); `layoutId` is the layout's id, resolved. */
export function contentChanges(input: UpdateTemplateInput, layoutId: string | null | undefined) {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.html !== undefined ? { html: input.html } : {}),
    ...(input.subject !== undefined ? { subject: input.subject } : {}),
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.from !== undefined ? { from: input.from } : {}),
    ...(input.reply_to !== undefined ? { replyTo: replyToJson(input.reply_to) } : {}),
    ...(input.variables !== undefined ? { variables: storedVariables(input.variables) } : {}),
    ...(layoutId !== undefined ? { layoutId } : {}),
  } satisfies Partial<VersionRow>;
}

export const contentOf = (version: VersionRow) => ({
  name: version.name,
  subject: version.subject,
  html: version.html,
  text: version.text,
  from: version.from,
  replyTo: version.replyTo,
  variables: version.variables,
  layoutId: version.layoutId,
});

const aliasTaken = (alias: string | null | undefined) =>
  conflict("alias_taken", "Alias taken", `Another template of this workspace has the alias ${alias}.`);

export async function writing<T>(alias: string | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, "templates.account_id, templates.alias")) throw aliasTaken(alias);
    throw error;
  }
}

export function newDraft(
  ctx: TemplateContext,
  templateId: string,
  content: ReturnType<typeof contentOf>,
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

export function insertTemplate(
  ctx: TemplateContext,
  head: { name: string; alias: string | null; type: TemplateType },
  version: VersionRow,
) {
  const template: TemplateRow = {
    id: version.templateId,
    accountId: ctx.accountId,
    ...head,
    currentVersionId: version.id,
    publishedVersionId: null,
    publishedAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  return writing(head.alias, () =>
    ctx.db.batch([
      ctx.db.insert(templates).values(template),
      ctx.db.insert(templateVersions).values(version),
    ]),
  );
}

/** A published version is never changed: an edit makes a new draft from it. */
export const insertVersionIf = (row: VersionRow, condition: SQL) => sql`
  INSERT INTO template_versions (id, account_id, template_id, name, subject, html, text, from_address,
    reply_to, variables, layout_id, published_at, revision, created_at, updated_at)
  SELECT ${row.id}, ${row.accountId}, ${row.templateId}, ${row.name}, ${row.subject}, ${row.html}, ${row.text},
    ${row.from}, ${row.replyTo}, ${row.variables}, ${row.layoutId}, NULL, 0, ${row.createdAt}, ${row.updatedAt}
  WHERE ${condition}`;

/**
 * The id of the layout `ref` (id or alias) names, for a template to keep; null clears it.
 * A template of this workspace that is not a layout, or none, is 422: a draft may be saved with
 * broken markup, but not pointing at something that cannot frame it.
 */
export async function layoutIdOf(ctx: TemplateContext, ref: string | null | undefined) {
  if (ref === undefined || ref === null) return ref;
  const found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, "published");
  if (!found) throw layoutInvalid(`layout_id ${ref}: no layout of this workspace has that id or alias.`);
  if (found.template.type !== "layout") {
    throw layoutInvalid(
      `layout_id ${ref}: that template is not a layout (create one with "type": "layout").`,
    );
  }
  return found.template.id;
}

/** SQL true while the layout exists and has a published version: a publish is written under it. */
export const layoutPublished = (accountId: string, layoutId: string) => sql`EXISTS (
  SELECT 1 FROM templates WHERE account_id = ${accountId} AND id = ${layoutId}
    AND type = 'layout' AND published_version_id IS NOT NULL)`;

/** The published version of the layout a template's version names (422 when it has none, or is gone). */
export async function publishedLayout(
  ctx: Pick<TemplateContext, "db" | "accountId">,
  templateId: string,
  layoutId: string,
) {
  const found = await findTemplateWithVersion(ctx.db, ctx.accountId, layoutId, "published");
  if (found?.template.type !== "layout") {
    throw layoutInvalid(
      `Template ${templateId} uses layout ${layoutId}, which was removed: name another (layout_id).`,
    );
  }
  if (!found.version) throw layoutNotPublished(templateId, layoutId);
  return found.version;
}
