import { CsrfField, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { BodyFields } from "./campaign-body";
import type { CampaignDraft } from "./campaign-forms";
import { GroupPicker, type GroupPicks, GroupSearch } from "./campaign-groups";
import type { TemplateChoice } from "./campaign-templates";

/** The automation editor's group selects use the same shape. */
export type { GroupChoice } from "./campaign-groups";

/** The editor's fields: a new campaign and a draft's page share them. */
export function CampaignFields(props: {
  values: Partial<CampaignDraft>;
  groups: GroupPicks;
  templates: TemplateChoice[];
}) {
  const { values } = props;
  return (
    <>
      <label>
        Name
        <input name="name" required maxlength={200} value={values.name ?? ""} />
      </label>
      <label>
        From
        <input name="from" required value={values.from ?? ""} placeholder="Acme <news@acme.com>" />
        <small>On a verified domain of this workspace.</small>
      </label>
      <label>
        Reply-To <span class="muted">(optional)</span>
        <input name="reply_to" value={values.reply_to ?? ""} />
      </label>
      <label>
        Subject
        <input name="subject" required value={values.subject ?? ""} />
      </label>
      <BodyFields values={values} templates={props.templates} />
      <GroupPicker picks={props.groups} />
    </>
  );
}

export function NewCampaignPage(props: {
  csrfToken: string;
  groups: GroupPicks;
  templates: TemplateChoice[];
  draft?: CampaignDraft | undefined;
  problem?: Problem | undefined;
}) {
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/campaigns">Campaigns</a>
      </p>
      <PageHeader title="New campaign" />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <form method="post" action="/dashboard/campaigns" class="stack">
          <CsrfField token={props.csrfToken} />
          <CampaignFields values={props.draft ?? {}} groups={props.groups} templates={props.templates} />
          <div class="actions">
            <button type="submit">Save draft</button>
          </div>
        </form>
        <GroupSearch action="/dashboard/campaigns/new" />
      </section>
    </>
  );
}
