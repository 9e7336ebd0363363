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

/** Only a template campaign can skip a recipient for a variable without a value. */
const MISSING: [keyof Campaign["stats"], string] = ["missing_variables", "Skipped (missing variable)"];

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
        {(campaign.template || campaign.stats.missing_variables > 0 ? [...COUNTERS, MISSING] : COUNTERS).map(
          ([key, label]) => (
            <div>
              <dt>{label}</dt>
              <dd>{campaign.stats[key]}</dd>
            </div>
          ),
        )}
      </dl>
    </section>
  );
}
