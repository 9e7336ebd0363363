import { CAMPAIGN_STATUSES } from "../../db/schema";
import type { getCampaign } from "../../features/campaigns/campaigns.service";
import { Badge, Empty, FilterSelect, Notice, PageHeader, Pager, Time } from "../../ui/components";

export type Campaign = Awaited<ReturnType<typeof getCampaign>>;

const DONE: Record<string, string> = { deleted: "Draft deleted." };

const TONES: Record<Campaign["status"], "good" | "bad" | "warn" | "neutral"> = {
  draft: "neutral",
  scheduled: "neutral",
  sending: "good",
  paused: "warn",
  sent: "good",
  cancelled: "bad",
};

export function StatusBadge(props: { status: Campaign["status"] }) {
  return <Badge text={props.status} tone={TONES[props.status]} />;
}

export function CampaignListPage(props: {
  campaigns: Campaign[];
  total: number;
  limit: number;
  offset: number;
  status: Campaign["status"] | undefined;
  canManage: boolean;
  done: string | undefined;
}) {
  return (
    <>
      <PageHeader title="Campaigns">
        {props.canManage ? (
          <a class="button" href="/dashboard/campaigns/new">
            New campaign
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <form method="get" action="/dashboard/campaigns" class="filters">
        <FilterSelect label="Status" name="status" value={props.status} options={CAMPAIGN_STATUSES} />
        <button type="submit">Filter</button>
      </form>
      <section class="panel">
        {props.campaigns.length === 0 ? (
          <Empty text="No campaigns here yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Recipients</th>
                <th>Sent</th>
                <th>Opened</th>
                <th>Clicked</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {props.campaigns.map((campaign) => (
                <tr>
                  <td>
                    <a href={`/dashboard/campaigns/${campaign.id}`}>{campaign.name}</a>
                  </td>
                  <td>
                    <StatusBadge status={campaign.status} />
                  </td>
                  <td>{campaign.stats.recipients}</td>
                  <td>{campaign.stats.sent}</td>
                  <td>{campaign.stats.opened}</td>
                  <td>{campaign.stats.clicked}</td>
                  <td>
                    <Time at={campaign.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/campaigns"
          query={{ status: props.status, limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
