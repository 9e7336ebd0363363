import { declaredWith, textHasUnsubscribe } from "../../features/campaigns/campaign-template";
import { personValues } from "../../features/campaigns/template-values";
import { fill } from "../../features/campaigns/variables";
import { renderInLayout } from "../../features/templates/layouts";
import { newRenderer } from "../../features/templates/markup";
import { markupOf, renderVersion, viewOf } from "../../features/templates/variables";
import type { Campaign } from "./campaign-list.page";
import type { CampaignVersions } from "./campaign-templates";

/**
 * Whatever a campaign's HTML holds, its preview runs nothing and reaches nothing: a sandbox (a
 * unique origin: no script, no forms, no cookies, no access to the dashboard), inline styles and
 * images as a mail client would show them, no other request.
 */
export const PREVIEW_POLICY =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; font-src https: data:";

const SAMPLE = { email: "ada@example.com", name: "Ada Lovelace", unsubscribeUrl: "#unsubscribe" };

/** The campaign's HTML as a sample recipient would get it (values escaped, as in the real send). */
export const previewHtml = (campaign: Campaign) => fill(campaign.html ?? "", SAMPLE, true);

/** How a variable without a value shows in a preview: as it is written, for the eye to find. */
const placeholder = (key: string) => `{{${key}}}`;

/**
 * A template campaign's email as the sample recipient would get it: the version in its layout,
 * filled as a send fills it (the campaign's static values, then the sample contact's fields, then
 * fallbacks; `groupName` is the campaign's first group). What the sample has no value for stays
 * `{{KEY}}` and is listed in `missing`: a recipient without a value for it is skipped. Null while
 * the markup does not parse (a template still being designed).
 */
export function templatePreview(
  found: CampaignVersions,
  statics: Record<string, string | number>,
  groupName: string | null,
) {
  const { version, layout } = found;
  const markup = markupOf(version);
  const layoutMarkup = layout ? markupOf(layout, true) : null;
  if (markup.problems.length > 0 || (layoutMarkup?.problems.length ?? 0) > 0) return null;
  const declared = declaredWith(version, layout);
  const contact = { ...SAMPLE, metadata: "{}", groupName };
  const { given, missing } = personValues(declared, statics, contact);
  const uses = [...markup.uses, ...(layoutMarkup?.uses ?? [])];
  const declaredKeys = new Set(declared.map((v) => v.key));
  const usedOnly = uses.map((use) => use.key).filter((key) => !declaredKeys.has(key));
  const view = viewOf(declared, given, uses, placeholder);
  const renderer = newRenderer();
  const rendered = renderInLayout(renderVersion(version, view, renderer), layout, view, renderer);
  const text =
    rendered.text === null || textHasUnsubscribe(version, layout)
      ? rendered.text
      : `${rendered.text}\n\nUnsubscribe: ${SAMPLE.unsubscribeUrl}\n`;
  return { html: rendered.html, text, missing: [...new Set([...missing, ...usedOnly])] };
}

/** The campaign's subject as the sample recipient gets it (a template campaign has its own subject). */
export const previewSubject = (campaign: Campaign) => fill(campaign.subject, SAMPLE);

export type TemplatePreview = NonNullable<ReturnType<typeof templatePreview>>;
