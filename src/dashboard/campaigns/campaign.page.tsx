import { ActionButton, CsrfField, Notice, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { editorValuesOf } from "./campaign-body";
import { CampaignFields } from "./campaign-editor";
import type { CampaignDraft } from "./campaign-forms";
import { type GroupPicks, GroupSearch } from "./campaign-groups";
import type { Campaign } from "./campaign-list.page";
import { CampaignStats } from "./campaign-stats";
import type { TemplateChoice } from "./campaign-templates";
import { TemplatePanel, type TemplateShown } from "./template-panel";

const DONE: Record<string, string> = {
  created: "Draft saved.",
  saved: "Draft saved.",
  sent: "Sending started.",
  scheduled: "Scheduled.",
  tested: "Test email sent.",
  paused: "Paused: no new batch leaves.",
  resumed: "Resumed where it stopped.",
  cancelled: "Cancelled.",
};

export interface CampaignPageProps {
  campaign: Campaign;
  groups: GroupPicks;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  draft?: CampaignDraft | undefined;
  /** The editor's template choices (a draft's editor only). */
  templates: TemplateChoice[];
  /** A template campaign's template and preview. */
  shown?: TemplateShown | undefined;
}

function Actions(props: CampaignPageProps) {
  const { campaign, csrfToken } = props;
  const base = `/dashboard/campaigns/${campaign.id}`;
  const button = (action: string, label: string, confirm?: string, danger?: boolean) => (
    <ActionButton
      action={`${base}/${action}`}
      label={label}
      csrfToken={csrfToken}
      {...(confirm ? { confirm } : {})}
      {...(danger ? { danger } : {})}
    />
  );
  return (
    <section class="panel">
      <h2>Actions</h2>
      {campaign.status === "draft" ? (
        <form
          method="post"
          action={`${base}/send`}
          class="inline"
          data-confirm="Send this campaign to its groups?"
        >
          <CsrfField token={csrfToken} />
          <label>
            At (UTC, empty: now)
            <input type="datetime-local" name="scheduled_at" />
          </label>
          <button type="submit">Send</button>
        </form>
      ) : null}
      {campaign.status === "sending" ? button("pause", "Pause") : null}
      {campaign.status === "paused" ? button("resume", "Resume") : null}
      {["scheduled", "sending", "paused"].includes(campaign.status)
        ? button("cancel", "Cancel", "Cancel this campaign? Recipients not yet sent to get nothing.", true)
        : null}
      {campaign.status === "draft" ? button("delete", "Delete draft", "Delete this draft?", true) : null}
      <form method="post" action={`${base}/test`} class="inline">
        <CsrfField token={csrfToken} />
        <label>
          Test to
          <input type="email" name="to" required />
        </label>
        <button type="submit">Send test</button>
      </form>
    </section>
  );
}

function Content(props: CampaignPageProps) {
  const { campaign } = props;
  if (campaign.status === "draft" && props.canManage) {
    return (
      <section class="panel">
        <h2>Draft</h2>
        <form method="post" action={`/dashboard/campaigns/${campaign.id}`} class="stack">
          <CsrfField token={props.csrfToken} />
          <CampaignFields
            values={props.draft ?? editorValuesOf(campaign)}
            groups={props.groups}
            templates={props.templates}
          />
          <div class="actions">
            <button type="submit">Save draft</button>
          </div>
        </form>
        <GroupSearch action={`/dashboard/campaigns/${campaign.id}`} />
      </section>
    );
  }
  const names = new Map(props.groups.chosen.map((g) => [g.id, g.name]));
  return (
    <section class="panel">
      <h2>Content</h2>
      <dl class="facts">
        <dt>From</dt>
        <dd>{campaign.from}</dd>
        <dt>Reply-To</dt>
        <dd>{campaign.reply_to ?? "–"}</dd>
        <dt>Subject</dt>
        <dd>{campaign.subject}</dd>
        <dt>Groups</dt>
        <dd>{campaign.contact_group_ids.map((id) => names.get(id) ?? id).join(", ") || "–"}</dd>
      </dl>
    </section>
  );
}

export function CampaignPage(props: CampaignPageProps) {
  const { campaign } = props;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/campaigns">Campaigns</a>
      </p>
      <PageHeader title={campaign.name}>
        {campaign.html || campaign.template ? (
          <a
            class="button"
            href={`/dashboard/campaigns/${campaign.id}/preview`}
            target="_blank"
            rel="noopener"
          >
            Preview
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <CampaignStats campaign={campaign} />
      {props.canManage ? <Actions {...props} /> : null}
      <Content {...props} />
      {props.shown ? <TemplatePanel campaign={campaign} shown={props.shown} /> : null}
    </>
  );
}
