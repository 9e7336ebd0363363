/**
 * A campaign as the bench drives it: a contact group of new customers, a campaign to it, and the
 * time from `send` until the campaign is `sent` (campaign-send, campaign-webhooks).
 */
import { call, callOk, describe } from "./api";
import { sleep } from "./process-group";
import type { BenchContext } from "./types";

const PER_CALL = 1_000;
const POLL_MS = 500;

export interface Campaign {
  id: string;
  status: string;
  paused_reason: string | null;
  stats: { recipients: number; sent: number; suppressed: number; failed: number };
}

/** The parsed JSON of a 201. */
export async function create<T>(ctx: BenchContext, path: string, body: unknown) {
  const answer = await call(ctx, "POST", path, body);
  if (answer.status !== 201) throw new Error(`POST ${path} answered ${describe(answer)}`);
  return JSON.parse(answer.text) as T;
}

/** A contact group of `recipients` new customers at example.com, added 1,000 a call. */
export async function groupOf(ctx: BenchContext, runId: string, recipients: number) {
  const group = await create<{ id: string }>(ctx, "/v1/contact-groups", { name: `Bench ${runId}` });
  for (let i = 0; i < recipients; i += PER_CALL) {
    const members = Array.from({ length: Math.min(PER_CALL, recipients - i) }, (_, j) => ({
      email: `r${i + j}.${runId}@example.com`,
    }));
    await callOk(ctx, "POST", `/v1/contact-groups/${group.id}/members`, { members });
  }
  return group.id;
}

/** A draft campaign to the group, personalised and with its unsubscribe link, as a sender writes one. */
export function campaignTo(ctx: BenchContext, name: string, groupId: string) {
  return create<Campaign>(ctx, "/v1/campaigns", {
    name,
    from: `Bench <news@${ctx.fromDomain}>`,
    subject: "News for {{name|you}}",
    html: '<p>Hello {{first_name|there}}</p><p><a href="{{unsubscribe_url}}">Unsubscribe</a></p>',
    text: "Hello {{first_name|there}}",
    contact_group_ids: [groupId],
  });
}

export interface CampaignRun {
  /** performance.now() just before `send`. */
  started: number;
  /** performance.now() when the campaign was first seen `sent`; undefined when it was not in time. */
  finished: number | undefined;
  last: Campaign;
}

/**
 * Sends the campaign and polls it until `sent` (or paused, cancelled, or `timeoutMs` past);
 * `meanwhile` runs at each poll (the minute sweep by hand, say).
 */
export async function sendAndWait(
  ctx: BenchContext,
  campaign: Campaign,
  timeoutMs: number,
  meanwhile: () => Promise<void> = async () => {},
): Promise<CampaignRun> {
  const started = performance.now();
  await callOk(ctx, "POST", `/v1/campaigns/${campaign.id}/send`, {});
  let last = campaign;
  while (performance.now() - started < timeoutMs) {
    last = await callOk<Campaign>(ctx, "GET", `/v1/campaigns/${campaign.id}`);
    if (last.status === "sent") return { started, finished: performance.now(), last };
    if (last.status === "paused" || last.status === "cancelled") break;
    await meanwhile();
    await sleep(POLL_MS);
  }
  return { started, finished: undefined, last };
}
