/**
 * A 10,000-recipient campaign with `email.sent` subscribed (issue 30, item 6): the same campaign
 * (capture transport, one group of 10,000 customers) sent four times in one server, without any
 * email webhook endpoint (A) and with one subscribed to `email.sent` (B), in the order A B B A so
 * that neither side always runs first on a warmer server or with fewer rows. The endpoint's URL is
 * EventReceiver on loopback in this process (ENVIRONMENT=development allows http:// to loopback),
 * which checks each signature and counts distinct event ids; it is deleted after its arm. Measured:
 * send to campaign `sent` for each arm, the slowdown of B against A (mean of two each), and for B
 * the time from `send` until the 10,000th distinct event arrived, duplicates and bad signatures.
 * Production's minute sweep is run by hand once a minute in every arm alike, as cron would.
 */
import { randomBytes } from "node:crypto";
import { call, countEmails, describe, waitForEmptyQueue } from "../lib/api";
import { type Campaign, type CampaignRun, campaignTo, create, groupOf, sendAndWait } from "../lib/campaign";
import { EventReceiver, Tally } from "../lib/event-receiver";
import { sleep } from "../lib/process-group";
import { receiverScenarioStart } from "../lib/receiver-scenario";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const RECIPIENTS = 10_000;
const MAX_SLOWDOWN = 20;
const ORDER = ["A", "B", "B", "A"] as const;
const CAMPAIGN_TIMEOUT_MS = 5 * 60_000;
/** After the campaign is sent, how long its events may still take. */
const EVENTS_TIMEOUT_MS = 5 * 60_000;
const BACKLOG_TIMEOUT_MS = 5 * 60_000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_PATH = "/__scheduled?cron=*+*+*+*+*";

type Arm = (typeof ORDER)[number];
const ARM_NAME: Record<Arm, string> = { A: "no endpoint", B: "email.sent subscribed" };

/** The minute cron, by hand: `tick` runs it when a minute has passed since the last. */
function minuteSweep(ctx: BenchContext) {
  let next = Date.now() + SWEEP_EVERY_MS;
  const sweeps = { runs: 0 };
  const tick = async () => {
    if (Date.now() < next) return;
    next = Date.now() + SWEEP_EVERY_MS;
    const answer = await fetch(`${ctx.baseUrl}${SWEEP_PATH}`).catch(() => undefined);
    await answer?.body?.cancel();
    if (answer?.ok) sweeps.runs++;
  };
  return { sweeps, tick };
}

interface ArmResult {
  arm: Arm;
  run: CampaignRun;
  /** Send to the 10,000th distinct event, seconds (B only; undefined when they did not all come). */
  eventsSeconds?: number | undefined;
  tally?: Tally;
  attemptsRecorded?: number;
}

const campaignSeconds = (run: CampaignRun) =>
  run.finished === undefined ? undefined : (run.finished - run.started) / 1000;

async function endpointFor(ctx: BenchContext, url: string) {
  return create<{ id: string; secret: string }>(ctx, "/v1/webhooks", { url, events: ["email.sent"] });
}

/** The attempts the service recorded for the endpoint: one per event when nothing was retried. */
async function attemptsOf(ctx: BenchContext, endpointId: string) {
  const answer = await call(ctx, "GET", `/v1/webhooks/${endpointId}/deliveries?limit=1`);
  if (answer.status !== 200) throw new Error(`GET deliveries answered ${describe(answer)}`);
  return (JSON.parse(answer.text) as { pagination: { total: number } }).pagination.total;
}

/** One arm: a fresh campaign to the group, sent and waited for, with its events when B. */
async function runArm(
  ctx: BenchContext,
  arm: Arm,
  index: number,
  names: { runId: string; groupId: string; receiver: EventReceiver; base: string },
  figures: Figure[],
): Promise<ArmResult> {
  const label = `${index + 1}. ${arm} (${ARM_NAME[arm]})`;
  const campaign = await campaignTo(ctx, `Bench ${names.runId} ${index + 1}${arm}`, names.groupId);
  let endpoint: { id: string; secret: string } | undefined;
  let tally: Tally | undefined;
  if (arm === "B") {
    const path = `/${names.runId}/${index + 1}/ok`;
    endpoint = await endpointFor(ctx, `${names.base}${path}`);
    const expected = (body: { event: string; data: Record<string, unknown> }) =>
      body.event === "email.sent" && body.data.campaign_id === campaign.id;
    tally = names.receiver.tally(path, new Tally(endpoint.secret, expected, RECIPIENTS));
  }
  try {
    return await sendArm(ctx, arm, label, campaign, tally, endpoint, figures);
  } finally {
    // Without an endpoint again for the arms after this one, and for later runs' sweeps.
    if (endpoint) {
      const gone = await call(ctx, "DELETE", `/v1/webhooks/${endpoint.id}`);
      if (gone.status >= 300) console.log(`  DELETE /v1/webhooks answered ${describe(gone)}`);
    }
  }
}

async function sendArm(
  ctx: BenchContext,
  arm: Arm,
  label: string,
  campaign: Campaign,
  tally: Tally | undefined,
  endpoint: { id: string } | undefined,
  figures: Figure[],
): Promise<ArmResult> {
  console.log(`  ${label}: sending ${campaign.id}...`);
  const { sweeps, tick } = minuteSweep(ctx);
  const cost = new WorkCost(ctx);
  await cost.start();
  const run = await sendAndWait(ctx, campaign, CAMPAIGN_TIMEOUT_MS, tick);
  const result: ArmResult = { arm, run };
  if (tally) {
    const deadline = Date.now() + EVENTS_TIMEOUT_MS;
    while (tally.reachedAt === undefined && Date.now() < deadline) {
      await tick();
      await sleep(100);
    }
    const sentAt = performance.timeOrigin + run.started;
    result.eventsSeconds = tally.reachedAt === undefined ? undefined : (tally.reachedAt - sentAt) / 1000;
    result.tally = tally;
  }
  await cost.stop();
  const sent = await countEmails(ctx, { tag: `campaign:${campaign.id}`, status: "sent" });
  const seconds = campaignSeconds(run);
  figures.push(
    { label: `${label}: send to campaign sent`, value: seconds ?? Number.NaN, unit: "s" },
    { label: `${label}: campaign emails sent`, value: sent, unit: `of ${RECIPIENTS}` },
    ...cost.figures(sent, "recipient").map((f) => ({ ...f, label: `${label}: ${f.label}` })),
    { label: `${label}: minute sweeps run by hand`, value: sweeps.runs, unit: "" },
  );
  if (tally && endpoint) {
    result.attemptsRecorded = await attemptsOf(ctx, endpoint.id);
    figures.push(
      {
        label: `${label}: send to last event received`,
        value: result.eventsSeconds ?? Number.NaN,
        unit: "s",
      },
      { label: `${label}: events received (distinct ids)`, value: tally.ids.size, unit: `of ${RECIPIENTS}` },
      { label: `${label}: duplicate deliveries`, value: tally.duplicates, unit: "" },
      { label: `${label}: bad signatures`, value: tally.badSignatures, unit: "" },
      { label: `${label}: unexpected events`, value: tally.unexpected, unit: "" },
      { label: `${label}: delivery attempts recorded`, value: result.attemptsRecorded, unit: "" },
    );
  }
  return result;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

function judge(results: ArmResult[], figures: Figure[], problems: string[], result: ScenarioResult) {
  for (const r of results) {
    if (r.run.finished === undefined)
      problems.push(
        `arm ${r.arm}: campaign ${r.run.last.status} with ${r.run.last.stats.sent} of ${RECIPIENTS} sent`,
      );
    if (r.tally) {
      if (r.tally.ids.size !== RECIPIENTS)
        problems.push(`arm ${r.arm}: ${r.tally.ids.size} of ${RECIPIENTS} events received`);
      if (r.tally.duplicates > 0) problems.push(`arm ${r.arm}: ${r.tally.duplicates} duplicate deliveries`);
      if (r.tally.badSignatures > 0) problems.push(`arm ${r.arm}: ${r.tally.badSignatures} bad signatures`);
      if (r.tally.unexpected > 0) problems.push(`arm ${r.arm}: ${r.tally.unexpected} unexpected events`);
    }
  }
  const secondsOf = (arm: Arm) =>
    results.filter((r) => r.arm === arm).map((r) => campaignSeconds(r.run) ?? Number.NaN);
  const [without, withEvents] = [mean(secondsOf("A")), mean(secondsOf("B"))];
  const slowdown = (withEvents / without - 1) * 100;
  // Each order alone: A then B (arms 1, 2), B then A (arms 3, 4).
  const pair = (a: ArmResult | undefined, b: ArmResult | undefined) =>
    a && b
      ? ((campaignSeconds(b.run) ?? Number.NaN) / (campaignSeconds(a.run) ?? Number.NaN) - 1) * 100
      : Number.NaN;
  const events = results.flatMap((r) => (r.eventsSeconds === undefined ? [] : [r.eventsSeconds]));
  figures.push(
    { label: "campaign seconds without an endpoint (mean of 2)", value: without, unit: "s" },
    { label: "campaign seconds with email.sent subscribed (mean of 2)", value: withEvents, unit: "s" },
    { label: "slowdown, A then B (arms 1-2)", value: pair(results[0], results[1]), unit: "%" },
    { label: "slowdown, B then A (arms 3-4)", value: pair(results[3], results[2]), unit: "%" },
    { label: "slowdown (means)", value: slowdown, unit: "%" },
  );
  if (events.length > 0)
    figures.push({ label: "send to all 10,000 events received (mean)", value: mean(events), unit: "s" });
  const clean = results.every(
    (r) =>
      r.run.finished !== undefined &&
      (!r.tally ||
        (r.tally.ids.size === RECIPIENTS && r.tally.duplicates === 0 && r.tally.badSignatures === 0)),
  );
  result.goals.push({
    label: `campaign slowdown with email.sent subscribed, ${RECIPIENTS} events delivered once`,
    value: slowdown,
    target: `<= ${MAX_SLOWDOWN}%`,
    met: clean && slowdown <= MAX_SLOWDOWN,
  });
}

export const campaignWebhooks: Scenario = {
  name: "campaign-webhooks",
  description: `a ${RECIPIENTS}-recipient campaign without and with email.sent to a loopback receiver (A B B A)`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const { result, figures, problems, local } = receiverScenarioStart(campaignWebhooks.name, ctx.baseUrl);
    if (!local) return result;
    const backlog = await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);
    if (backlog.left > 0)
      problems.push(`${backlog.left} emails of earlier work were still unsent at the start`);
    const receiver = new EventReceiver();
    const base = await receiver.listen();
    try {
      const runId = randomBytes(4).toString("hex");
      // One group for every arm: the same 10,000 customers, made before any clock starts.
      const groupId = await groupOf(ctx, runId, RECIPIENTS);
      const results: ArmResult[] = [];
      for (const [i, arm] of ORDER.entries())
        results.push(await runArm(ctx, arm, i, { runId, groupId, receiver, base }, figures));
      if (receiver.strays > 0) problems.push(`${receiver.strays} requests to no endpoint's path`);
      judge(results, figures, problems, result);
    } finally {
      await receiver.close();
    }
    return result;
  },
};
