import { Time } from "../../ui/components";
import { type Campaign, StatusBadge } from "./campaign-list.page";

const LIVE = new Set<Campaign["status"]>(["scheduled", "sending", "paused"]);

const COUNTERS: Array<[keyof Campaign["stats"], string]> = [
  ["recipients", "Recipients"],
  ["sent", "Sent"],
  ["suppressed", "Suppressed"],
  ["failed", "Failed"],
  ["opened", "Opened"],
  ["clicked", "Clicked"],
  ["unsubscribed", "Unsubscribed"],
  ["bounced", "Bounced"],
];

/**
 * The status and counters. While the campaign can still change, htmx fetches this panel again
 * every 5 seconds and swaps it in whole (so polling stops by itself once it is sent or cancelled).
 */
export function CampaignStats(props: { campaign: Campaign }) {
  const { campaign } = props;
  const live = LIVE.has(campaign.status);
  return (
    <section
      class="panel"
      id="campaign-stats"
      aria-live="polite"
      {...(live
        ? {
            "hx-get": `/dashboard/campaigns/${campaign.id}/stats`,
            "hx-trigger": "every 5s",
            "hx-swap": "outerHTML",
          }
        : {})}
    >
      <p>
        <StatusBadge status={campaign.status} />{" "}
        {campaign.status === "scheduled" ? (
          <span>
            for <Time at={campaign.scheduled_at} />
          </span>
        ) : null}
        {campaign.sent_at ? (
          <span>
            finished <Time at={campaign.sent_at} />
          </span>
        ) : null}
      </p>
      {campaign.paused_reason ? (
        <p class="notice error" role="alert">
          Paused by the service: {campaign.paused_reason}
        </p>
      ) : null}
      <dl class="counters">
        {COUNTERS.map(([key, label]) => (
          <div>
            <dt>{label}</dt>
            <dd>{campaign.stats[key]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
