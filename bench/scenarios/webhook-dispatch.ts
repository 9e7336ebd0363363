/**
 * Webhook dispatch: 1,000 events (one ticket.created each) to two webhooks on a loopback receiver,
 * and the time from the first event until the last delivery arrives. Then the same with one of the
 * two receivers never answering: the healthy one must not wait for the silent one (whose every
 * delivery waits out the 10 s timeout), so its last delivery should come about as soon as before.
 * The receiver is the test suite's, run in this process; it reaches a local `wrangler dev` only
 * (ENVIRONMENT=development allows http:// to loopback), so against BENCH_URL the scenario skips.
 */
import { randomBytes } from "node:crypto";
import { type ReceivedWebhook, WebhookReceiver } from "../../test/support/webhook-receiver";
import { call, describe, quantile } from "../lib/api";
import { sleep } from "../lib/process-group";
import { receiverScenarioStart } from "../lib/receiver-scenario";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";

const EVENTS = 1_000;
const CONCURRENCY = 20;
const DELIVERY_TIMEOUT_MS = 5 * 60_000;
/** Production's minute cron sweeps the outbox; locally nothing runs it, so the scenario does. */
const SWEEP_EVERY_MS = 10_000;
const SWEEP_PATH = "/__scheduled?cron=*+*+*+*+*";

interface Round {
  label: string;
  createdSeconds: number;
  failures: string[];
  firstEventAt: number;
  lastEventAt: number;
}

async function inboxWith(ctx: BenchContext, urls: string[]): Promise<string> {
  const answer = await call(ctx, "POST", "/v1/inboxes", {
    name: "Bench webhooks",
    // An inbox address must be on a verified domain of the workspace.
    email_address: `bench-${randomBytes(4).toString("hex")}@${ctx.fromDomain}`,
    webhooks: urls.map((url) => ({ url, events: ["ticket.created"], enabled: true })),
  });
  if (answer.status !== 201) throw new Error(`POST /v1/inboxes answered ${describe(answer)}`);
  return (JSON.parse(answer.text) as { id: string }).id;
}

/** Fires EVENTS ticket.created events, CONCURRENCY requests at a time. */
async function fireEvents(ctx: BenchContext, label: string, inboxId: string): Promise<Round> {
  const round: Round = { label, createdSeconds: 0, failures: [], firstEventAt: 0, lastEventAt: 0 };
  let started = 0;
  const worker = async () => {
    while (started < EVENTS) {
      const n = started++;
      if (n === 0) round.firstEventAt = Date.now();
      const answer = await call(ctx, "POST", "/v1/tickets", {
        inbox_id: inboxId,
        customer: { email: `bench-${n % 50}@example.com` },
        subject: `Bench ${n}`,
      }).catch((error: unknown) => ({ status: 0, text: String(error) }));
      if (answer.status !== 201) round.failures.push(describe(answer));
    }
  };
  const begun = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  round.lastEventAt = Date.now();
  round.createdSeconds = (performance.now() - begun) / 1000;
  return round;
}

/**
 * Waits until `count` requests reached `path` (or null when time ran out), running the minute
 * sweep by hand every SWEEP_EVERY_MS as production's cron would; `sweeps` counts those runs.
 */
async function arrivals(
  ctx: BenchContext,
  receiver: WebhookReceiver,
  path: string,
  count: number,
  sweeps: { runs: number },
) {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  let nextSweep = Date.now() + SWEEP_EVERY_MS;
  for (;;) {
    const got = receiver.received.filter((r) => r.path === path);
    if (got.length >= count) return got;
    if (Date.now() > deadline) return null;
    if (Date.now() >= nextSweep) {
      nextSweep = Date.now() + SWEEP_EVERY_MS;
      await fetch(`${ctx.baseUrl}${SWEEP_PATH}`).then(
        () => sweeps.runs++,
        () => undefined,
      );
    }
    await sleep(100);
  }
}

/** Delay from each event's timestamp to its arrival, sorted (ms). */
const lags = (received: ReceivedWebhook[]) =>
  received
    .map((r) => r.receivedAt - Date.parse((JSON.parse(r.body) as { timestamp: string }).timestamp))
    .sort((a, b) => a - b);

function report(round: Round, name: string, received: ReceivedWebhook[] | null, figures: Figure[]) {
  if (!received) return `${round.label}: ${name} did not get all ${EVENTS} deliveries in time`;
  const last = Math.max(...received.map((r) => r.receivedAt));
  const sorted = lags(received);
  figures.push(
    {
      label: `${round.label}: first event to last delivery (${name})`,
      value: (last - round.firstEventAt) / 1000,
      unit: "s",
    },
    {
      label: `${round.label}: last event to last delivery (${name})`,
      value: (last - round.lastEventAt) / 1000,
      unit: "s",
    },
    { label: `${round.label}: event to delivery p50 (${name})`, value: quantile(sorted, 0.5), unit: "ms" },
    { label: `${round.label}: event to delivery p99 (${name})`, value: quantile(sorted, 0.99), unit: "ms" },
  );
  return null;
}

export const webhookDispatch: Scenario = {
  name: "webhook-dispatch",
  description: `${EVENTS} events to two loopback webhooks, then with one receiver that never answers`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const { result, figures, problems, local } = receiverScenarioStart(webhookDispatch.name, ctx.baseUrl);
    if (!local) return result;
    const receiver = new WebhookReceiver();
    const base = await receiver.listen();
    try {
      const run = randomBytes(4).toString("hex");
      const rounds = [
        { label: "two healthy", a: `/${run}/1/a/ok`, b: `/${run}/1/b/ok`, silent: false },
        { label: "one silent", a: `/${run}/2/a/ok`, b: `/${run}/2/b/hang`, silent: true },
      ];
      for (const spec of rounds) {
        const inboxId = await inboxWith(ctx, [`${base}${spec.a}`, `${base}${spec.b}`]);
        const round = await fireEvents(ctx, spec.label, inboxId);
        figures.push({
          label: `${spec.label}: creating ${EVENTS} tickets`,
          value: round.createdSeconds,
          unit: "s",
        });
        if (round.failures.length > 0) {
          problems.push(`${round.failures.length} ticket creations failed, e.g. ${round.failures[0]}`);
        }
        const expected = EVENTS - round.failures.length;
        const sweeps = { runs: 0 };
        const healthy = await arrivals(ctx, receiver, spec.a, expected, sweeps);
        const problem = report(round, "receiver a", healthy, figures);
        if (problem) problems.push(problem);
        if (!spec.silent) {
          const other = await arrivals(ctx, receiver, spec.b, expected, sweeps);
          const second = report(round, "receiver b", other, figures);
          if (second) problems.push(second);
        }
        figures.push({
          label: `${spec.label}: minute sweeps run by hand meanwhile`,
          value: sweeps.runs,
          unit: "",
        });
      }
    } finally {
      await receiver.close();
    }
    return result;
  },
};
