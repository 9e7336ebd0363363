import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { campaigns, templateVersions } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { joinVariables } from "../templates/layouts";
import { publishedLayout } from "../templates/template-writes";
import { findTemplateWithVersion, type TemplateRow, type VersionRow } from "../templates/templates.repo";
import type { SendTemplateInput, VariableValues } from "../templates/templates.schemas";
import { templateNotFound, versionNotFound } from "../templates/templates.service";
import {
  markupOf,
  type StoredVariable,
  valueProblems,
  variablesOf,
  variablesRefused,
} from "../templates/variables";
import type { CampaignRow } from "./campaigns.repo";
import { isUnsubscribeKey, needsCustomData } from "./template-values";

interface Ctx {
  db: Db;
  accountId: string;
}

/** A template named by a campaign or a step: by id or alias, a version or the published one. */
async function lookup(ctx: Ctx, ref: string, versionId: string | null, draftToo: boolean) {
  const which = versionId ? { id: versionId } : ("published" as const);
  let found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, which);
  if (!found) throw templateNotFound(ref);
  // A draft campaign or automation may name a template still being designed: checked against its draft.
  if (!found.version && !versionId && draftToo)
    found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, "current");
  if (!found?.version) {
    if (versionId) throw versionNotFound(ref, versionId);
    throw new AppError(
      422,
      "template_not_published",
      "Template not published",
      `Template ${ref} has no published version: publish it (POST /v1/templates/{id}/publish) or name a version.`,
    );
  }
  if (found.version.publishedAt === null && !draftToo) {
    throw new AppError(
      422,
      "template_version_not_published",
      "Template version not published",
      `Version ${found.version.id} of template ${ref} is a draft: campaigns and automations send published versions only.`,
    );
  }
  const usable = { template: found.template, version: found.version };
  return { ...usable, layout: await layoutOf(ctx, usable, draftToo) };
}

/**
 * The published version of the layout a version names (null without one): what a send frames the
 * template in, 422 when the layout is gone or unpublished. A draft campaign or step may name a
 * template whose layout is still a draft: its layout's variables are then checked at send.
 */
async function layoutOf(ctx: Ctx, found: { template: TemplateRow; version: VersionRow }, draftToo: boolean) {
  const layoutId = found.version.layoutId;
  if (!layoutId) return null;
  if (!draftToo) return publishedLayout(ctx, found.template.id, layoutId);
  const layout = await findTemplateWithVersion(ctx.db, ctx.accountId, layoutId, "published");
  return layout?.template.type === "layout" ? layout.version : null;
}

/** The variables a send through the version (in its layout) declares. */
export const declaredWith = (version: VersionRow, layout: VersionRow | null) =>
  joinVariables(variablesOf(version), layout ? variablesOf(layout) : null);

/**
 * 422 naming each static value the version does not declare or whose type is wrong, and any
 * static `unsubscribe_url` (it is each recipient's own link).
 */
export function assertStatics(
  version: VersionRow,
  layout: VersionRow | null,
  statics: VariableValues,
  path: string,
) {
  const declared = declaredWith(version, layout);
  const byKey = new Map(declared.map((v) => [v.key, v]));
  const details = valueProblems(
    {
      undeclared: Object.keys(statics).filter((key) => !byKey.has(key)),
      missing: [],
      mistyped: declared
        .filter((v) => statics[v.key] !== undefined && typeof statics[v.key] !== v.type)
        .map((v) => ({ key: v.key, expected: v.type })),
    },
    path,
  );
  for (const key of Object.keys(statics).filter(isUnsubscribeKey))
    details.push({ path: `${path}.${key}`, message: "is each recipient's own link: it cannot be given" });
  if (details.length > 0) throw variablesRefused(details);
}

/**
 * A template as a draft campaign or a step stores it, checked (404 for a template or version not of
 * this workspace; 422 for static values): the template's id, the version named (if any), the values.
 */
export async function resolveTemplate(ctx: Ctx, input: SendTemplateInput, path: string) {
  const { template, version, layout } = await lookup(ctx, input.id, input.version_id ?? null, true);
  // A draft's layout may not be published yet: its variables are not known, so none is refused for it.
  if (!version.layoutId || layout) assertStatics(version, layout, input.variables ?? {}, `${path}.variables`);
  return { template, version, variables: input.variables ?? {} };
}

/** The published version a send uses (the one named, else the published one now), checked again. */
export async function sendableTemplate(
  ctx: Ctx,
  ref: string,
  versionId: string | null,
  statics: VariableValues,
  path: string,
) {
  const { template, version, layout } = await lookup(ctx, ref, versionId, false);
  assertStatics(version, layout, statics, `${path}.variables`);
  return { template, version, layout };
}

const usesUnsubscribe = (version: VersionRow, field: "html" | "text") => {
  const source = version[field];
  if (source === null) return false;
  const only = {
    ...version,
    subject: null,
    html: field === "html" ? source : "",
    text: field === "text" ? source : null,
  };
  return markupOf(only).uses.some((use) => isUnsubscribeKey(use.key));
};

/**
 * Whether the version's html, or its layout's (where the unsubscribe block usually lives), uses
 * the unsubscribe link (`{{unsubscribe_url}}` or `{{{...}}}`).
 */
export const htmlHasUnsubscribe = (version: VersionRow, layout: VersionRow | null = null) =>
  usesUnsubscribe(version, "html") || (layout !== null && usesUnsubscribe(layout, "html"));

/** The same for the text part: the template's text, or the layout's text that frames it. */
export const textHasUnsubscribe = (version: VersionRow, layout: VersionRow | null = null) =>
  version.text !== null &&
  (usesUnsubscribe(version, "text") || (layout?.text != null && usesUnsubscribe(layout, "text")));

/**
 * Which of `custom` (variables only metadata could fill) no member of the campaign's groups has in
 * its metadata with a value of the variable's type: per variable, the members of each group by
 * the members' primary key, each customer by its own; it stops at the first member that has it.
 */
export function unfillableQuery(
  campaign: Pick<CampaignRow, "accountId" | "contactGroupIds">,
  custom: Array<{ key: string; type: "string" | "number" }>,
) {
  const wanted = JSON.stringify(custom.map((v) => ({ k: v.key, t: v.type === "number" ? "n" : "s" })));
  return sql`
    SELECT j.value ->> 'k' AS key FROM json_each(${wanted}) AS j
    WHERE NOT EXISTS (
      SELECT 1 FROM contact_group_members m JOIN customers c ON c.id = m.customer_id
      WHERE m.group_id IN (SELECT value FROM json_each(${campaign.contactGroupIds})) AND m.account_id = ${campaign.accountId}
        AND CASE j.value ->> 't'
          WHEN 'n' THEN json_type(c.metadata, '$.' || (j.value ->> 'k')) IN ('integer', 'real')
          ELSE json_type(c.metadata, '$.' || (j.value ->> 'k')) = 'text' END)`;
}

/**
 * 422 at send or schedule for a variable with no fallback that no source can fill: not given by
 * the campaign, not a contact field, and in no member's metadata (with a value of its type).
 */
export async function assertFillable(
  db: Db,
  campaign: CampaignRow,
  declared: StoredVariable[],
  statics: VariableValues,
) {
  const custom = needsCustomData(declared, statics);
  if (custom.length === 0) return;
  const rows = await db.all<{ key: string }>(unfillableQuery(campaign, custom));
  if (rows.length === 0) return;
  throw variablesRefused(
    rows.map((row) => ({
      path: `template.variables.${row.key}`,
      message:
        "has no value: not given by the campaign, not a contact field, in no member's metadata, and no fallback_value",
    })),
  );
}

/**
 * The campaign's pinned template version (or, with `layout`, its pinned layout version), for the
 * batch's first read (no round trip of its own): a published version never changes, so every
 * batch renders the same content.
 */
export const pinnedVersionQuery = (db: Db, campaignId: string, layout = false) =>
  db
    .select()
    .from(templateVersions)
    .where(
      and(
        eq(
          templateVersions.id,
          sql`(SELECT ${layout ? campaigns.templateLayoutVersionId : campaigns.templateVersionId} FROM ${campaigns} WHERE ${campaigns.id} = ${campaignId})`,
        ),
        eq(
          templateVersions.accountId,
          sql`(SELECT ${campaigns.accountId} FROM ${campaigns} WHERE ${campaigns.id} = ${campaignId})`,
        ),
      ),
    )
    .limit(1);

export const staticsOf = (campaign: Pick<CampaignRow, "templateVariables">): VariableValues =>
  campaign.templateVariables ? (JSON.parse(campaign.templateVariables) as VariableValues) : {};
