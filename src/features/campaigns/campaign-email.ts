import { unsubscribeHeaders, unsubscribeUrl } from "../../mail/unsubscribe-token";
import { normalizeEmail } from "../emails/emails.input";
import { renderInLayout } from "../templates/layouts";
import { newRenderer } from "../templates/markup";
import type { VersionRow } from "../templates/templates.repo";
import { renderVersion, type StoredVariable, viewOf } from "../templates/variables";
import { declaredWith, staticsOf, textHasUnsubscribe } from "./campaign-template";
import type { CampaignRow } from "./campaigns.repo";
import type { PendingRecipient } from "./recipients.repo";
import { type ContactFields, missingReason, personValues } from "./template-values";
import { fill, oneLine, textWithUnsubscribe } from "./variables";

/** A campaign's pinned template version, ready to render a batch: parsed once for all its recipients. */
export interface BatchTemplate {
  version: VersionRow;
  /** The pinned published version of the layout that frames it, if it names one. */
  layout: VersionRow | null;
  declared: StoredVariable[];
  statics: ReturnType<typeof staticsOf>;
  renderer: ReturnType<typeof newRenderer>;
}

export const batchTemplate = (
  campaign: CampaignRow,
  version: VersionRow,
  layout: VersionRow | null,
): BatchTemplate => ({
  version,
  layout,
  declared: declaredWith(version, layout),
  statics: staticsOf(campaign),
  renderer: newRenderer(),
});

const contactOf = (r: PendingRecipient, unsubscribeUrl: string): ContactFields => ({
  email: r.email,
  name: r.name,
  metadata: r.metadata,
  groupName: r.groupName,
  unsubscribeUrl,
});

/** The template's variables a recipient has no value for (empty: it can be sent). */
export function missingOf(t: BatchTemplate, r: PendingRecipient): string[] {
  // The link is each recipient's and always there: any non-empty stand-in answers the same.
  return personValues(t.declared, t.statics, contactOf(r, "link")).missing;
}

/** Why a recipient cannot be sent the template, or null. */
export function skipReason(t: BatchTemplate, r: PendingRecipient): string | null {
  const missing = missingOf(t, r);
  return missing.length > 0 ? missingReason(missing) : null;
}

/** The template filled in for one recipient; a text part without the link gets it appended. */
export function templatedBody(t: BatchTemplate, r: PendingRecipient, url: string) {
  const { given } = personValues(t.declared, t.statics, contactOf(r, url));
  const view = viewOf(t.declared, given, [], () => "");
  const rendered = renderInLayout(renderVersion(t.version, view, t.renderer), t.layout, view, t.renderer);
  const text =
    rendered.text === null
      ? null
      : textHasUnsubscribe(t.version, t.layout)
        ? rendered.text
        : `${rendered.text}\n\nUnsubscribe: ${url}\n`;
  return { html: rendered.html, ...(text === null ? {} : { text }) };
}

/** The template (and layout) versions an email was built from, as the email records them. */
const templateOfEmail = ({ version, layout }: BatchTemplate) => ({
  id: version.templateId,
  versionId: version.id,
  ...(layout ? { layout: { id: layout.templateId, versionId: layout.id } } : {}),
});

/** One recipient's email: the campaign's content (or template) with their values and unsubscribe link. */
export async function campaignEmail(
  env: Env,
  campaign: CampaignRow,
  r: PendingRecipient,
  now: number,
  template: BatchTemplate | null,
) {
  const url = await unsubscribeUrl(
    env,
    { customerId: r.customerId, campaignId: campaign.id },
    campaign.accountId,
  );
  const values = { email: r.email, name: r.name, unsubscribeUrl: url };
  const body = template
    ? templatedBody(template, r, url)
    : {
        ...(campaign.html ? { html: fill(campaign.html, values, true) } : {}),
        ...(campaign.text ? { text: fill(textWithUnsubscribe(campaign.text), values) } : {}),
      };
  const email = normalizeEmail(
    {
      from: campaign.from,
      to: r.email,
      ...(campaign.replyTo ? { reply_to: campaign.replyTo } : {}),
      subject: oneLine(fill(campaign.subject, values)),
      ...body,
      headers: unsubscribeHeaders(url),
      // GET /v1/emails?tag=campaign:<id> lists the campaign's emails.
      tags: [{ name: "campaign", value: campaign.id }],
    },
    now,
  );
  return {
    ...email,
    campaignId: campaign.id,
    ...(template ? { template: templateOfEmail(template) } : {}),
  };
}
