import { declaredWith, pinnedVersionQuery } from "../../features/campaigns/campaign-template";
import { findTemplateWithVersion, type VersionRow } from "../../features/templates/templates.repo";
import { templateChoices as listTemplateChoices, type TemplateChoice } from "../template-choices";
import type { CampaignDraft, VariableTypes } from "./campaign-forms";
import type { Campaign } from "./campaign-list.page";

/**
 * What the campaign pages read of templates: the editor's choices, the types of the chosen one's
 * variables, and the version (and layout version) a campaign sends. Reads only, through the
 * templates' own queries; every rule stays the campaigns service's.
 */

interface Ctx {
  db: Parameters<typeof findTemplateWithVersion>[0];
  accountId: string;
  now: number;
}

export type { TemplateChoice } from "../template-choices";

/**
 * The editor's select: the published templates among the workspace's newest hundred (layouts are
 * not listed: they are sent inside a template), and the chosen one always, whatever its state (the
 * automation editor's list, src/dashboard/template-choices.ts, narrowed to what a campaign can send).
 */
export async function templateChoices(ctx: Ctx, chosen: string | undefined): Promise<TemplateChoice[]> {
  const all = await listTemplateChoices(ctx.db, ctx.accountId, chosen ? [chosen] : []);
  return all.filter((t) => t.published || t.id === chosen);
}

/**
 * A template's version as a draft campaign would check it: the one named, else the published one,
 * else (a template still being designed) its current draft; with its layout's published version.
 */
async function draftVersions(ctx: Ctx, ref: string, versionId: string | null) {
  let found = await findTemplateWithVersion(
    ctx.db,
    ctx.accountId,
    ref,
    versionId ? { id: versionId } : "published",
  );
  if (found && !found.version && !versionId)
    found = await findTemplateWithVersion(ctx.db, ctx.accountId, ref, "current");
  if (!found?.version) return null;
  const layoutId = found.version.layoutId;
  const layout = layoutId
    ? await findTemplateWithVersion(ctx.db, ctx.accountId, layoutId, "published")
    : null;
  return {
    template: found.template,
    version: found.version,
    layoutId,
    layout: layout?.template.type === "layout" ? layout.version : null,
  };
}

/** The declared type of each variable of the template the form chose (none when it chose none). */
export async function variableTypesOf(ctx: Ctx, form: CampaignDraft): Promise<VariableTypes> {
  const id = form.template_id?.trim();
  if (form.body === "html" || !id) return new Map();
  const version = form.template_version_of === id ? form.template_version_id?.trim() || null : null;
  const found = await draftVersions(ctx, id, version);
  if (!found) return new Map();
  return new Map(declaredWith(found.version, found.layout).map((v) => [v.key, v.type]));
}

/**
 * The template and versions a campaign sends: once sent or scheduled, the versions it pinned (the
 * template's in `template.version_id`, its layout's in its own column); a draft, as it would be
 * checked now. Null when the template (or its version) is gone.
 */
export async function campaignVersions(ctx: Ctx, campaign: Campaign) {
  const ref = campaign.template;
  if (!ref) return null;
  const found = await draftVersions(ctx, ref.id, ref.version_id);
  if (!found || campaign.status === "draft") return found;
  const [pinned] = await pinnedVersionQuery(ctx.db, campaign.id, true);
  return { ...found, layout: (pinned as VersionRow | undefined) ?? found.layout };
}

export type CampaignVersions = NonNullable<Awaited<ReturnType<typeof campaignVersions>>>;
