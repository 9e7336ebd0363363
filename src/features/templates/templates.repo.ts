import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { templates, templateVersions } from "../../db/schema";
import { idPattern } from "../../lib/ids";

export type TemplateRow = typeof templates.$inferSelect;
export type VersionRow = typeof templateVersions.$inferSelect;

const TEMPLATE_ID = new RegExp(idPattern("tpl"));

/** A template named by its id (`tpl_...`) or its alias; aliases never look like ids. */
export const byIdOrAlias = (accountId: string, ref: string) =>
  and(
    eq(templates.accountId, accountId),
    TEMPLATE_ID.test(ref) ? eq(templates.id, ref) : eq(templates.alias, ref),
  );

/** Which version a lookup joins: one by id, or the template's current or published one. */
export type WhichVersion = { id: string } | "current" | "published";

/**
 * The template `ref` names with one of its versions (null when it has no such version), in one
 * query by the (account_id, id) or (account_id, alias) index and the version's primary key.
 */
export function templateWithVersion(db: Db, accountId: string, ref: string, which: WhichVersion) {
  const versionId =
    which === "current"
      ? templates.currentVersionId
      : which === "published"
        ? templates.publishedVersionId
        : which.id;
  return db
    .select({ template: templates, version: templateVersions })
    .from(templates)
    .leftJoin(
      templateVersions,
      and(
        eq(templateVersions.id, versionId),
        eq(templateVersions.accountId, accountId),
        eq(templateVersions.templateId, templates.id),
      ),
    )
    .where(byIdOrAlias(accountId, ref))
    .limit(1);
}

/**
 * The same lookup as two single-table queries, for a D1 batch: a batch answers rows as objects by
 * column name, where the join's two `id`s (and names, timestamps) would overwrite each other. A
 * third finds the published version of the layout that version names (none without one): the
 * layout is read in the same batch, by nested primary-key lookups, never a round trip of its own.
 */
export function templateAndVersionQueries(db: Db, accountId: string, ref: string, which: WhichVersion) {
  const template = db.select().from(templates).where(byIdOrAlias(accountId, ref)).limit(1);
  const column = which === "published" ? templates.publishedVersionId : templates.currentVersionId;
  const versionId =
    typeof which === "object"
      ? sql`${which.id}`
      : sql`(SELECT ${column} FROM ${templates} WHERE ${byIdOrAlias(accountId, ref)})`;
  const templateId = sql`(SELECT ${templates.id} FROM ${templates} WHERE ${byIdOrAlias(accountId, ref)})`;
  const version = db
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(templateVersions.accountId, accountId),
        eq(templateVersions.id, versionId),
        eq(templateVersions.templateId, templateId),
      ),
    )
    .limit(1);
  const layoutVersionId = sql`(SELECT l.published_version_id FROM templates l
    WHERE l.account_id = ${accountId} AND l.type = 'layout' AND l.id = (
      SELECT v.layout_id FROM template_versions v
      WHERE v.account_id = ${accountId} AND v.id = ${versionId} AND v.template_id = ${templateId}))`;
  const layout = db
    .select()
    .from(templateVersions)
    .where(and(eq(templateVersions.accountId, accountId), eq(templateVersions.id, layoutVersionId)))
    .limit(1);
  return [template, version, layout] as const;
}

export async function findTemplateWithVersion(db: Db, accountId: string, ref: string, which: WhichVersion) {
  return (await templateWithVersion(db, accountId, ref, which))[0] ?? null;
}

interface Page {
  type?: "template" | "layout";
  limit: number;
  after?: string | undefined;
  before?: string | undefined;
}

/**
 * A page newest first, one more row than asked (to answer `has_more`). `before` walks the index
 * the other way and the page is turned back. Ids are ULIDs, so their order is creation order.
 */
export function templatePageQuery(db: Db, accountId: string, page: Page) {
  const cursor = page.after
    ? lt(templates.id, page.after)
    : page.before
      ? gt(templates.id, page.before)
      : undefined;
  return db
    .select({
      id: templates.id,
      name: templates.name,
      alias: templates.alias,
      currentVersionId: templates.currentVersionId,
      publishedVersionId: templates.publishedVersionId,
      publishedAt: templates.publishedAt,
      createdAt: templates.createdAt,
      updatedAt: templates.updatedAt,
    })
    .from(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.type, page.type ?? "template"), cursor))
    .orderBy(page.before ? asc(templates.id) : desc(templates.id))
    .limit(page.limit + 1);
}

/** A template's versions, newest first (the (account_id, template_id, id) index), without content. */
export function versionPageQuery(db: Db, accountId: string, templateId: string, page: Page) {
  const cursor = page.after
    ? lt(templateVersions.id, page.after)
    : page.before
      ? gt(templateVersions.id, page.before)
      : undefined;
  return db
    .select({
      id: templateVersions.id,
      templateId: templateVersions.templateId,
      name: templateVersions.name,
      subject: templateVersions.subject,
      from: templateVersions.from,
      publishedAt: templateVersions.publishedAt,
      createdAt: templateVersions.createdAt,
      updatedAt: templateVersions.updatedAt,
    })
    .from(templateVersions)
    .where(
      and(eq(templateVersions.accountId, accountId), eq(templateVersions.templateId, templateId), cursor),
    )
    .orderBy(page.before ? asc(templateVersions.id) : desc(templateVersions.id))
    .limit(page.limit + 1);
}

export const ofTemplate = (accountId: string, id: string) =>
  and(eq(templates.accountId, accountId), eq(templates.id, id));

export const ofVersion = (accountId: string, id: string) =>
  and(eq(templateVersions.accountId, accountId), eq(templateVersions.id, id));

/** Templates whose published version is sent inside the layout (through the (account_id, layout_id) index). */
export function layoutUsersQuery(db: Db, accountId: string, layoutId: string) {
  return db
    .select({ id: templates.id, name: templates.name })
    .from(templateVersions)
    .innerJoin(
      templates,
      and(
        eq(templates.id, templateVersions.templateId),
        eq(templates.publishedVersionId, templateVersions.id),
      ),
    )
    .where(and(eq(templateVersions.accountId, accountId), eq(templateVersions.layoutId, layoutId)))
    .limit(5);
}

/** True while no template's published version uses the layout: the condition its removal is written under. */
export const layoutUnused = (accountId: string, layoutId: string) => sql`NOT EXISTS (
  SELECT 1 FROM template_versions v JOIN templates t ON t.id = v.template_id AND t.published_version_id = v.id
  WHERE v.account_id = ${accountId} AND v.layout_id = ${layoutId})`;
