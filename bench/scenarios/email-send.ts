/**
 * The cost of sending an email: POST /v1/emails (validation, sender domain check, quotas,
 * suppressions, one D1 batch, a queue message) and the queue's work for it (claim, MIME, DKIM, the
 * message in R2, the outcome), against the unauthenticated health check on the same server. In
 * development the transport is `capture`, so the sends stay on this machine.
 *
 * Why the goal is the end-to-end rate: the queue consumer runs in the same workerd as the API, so
 * a burst of accepts only defers its cost; an accept rate measured while the backlog grows (or
 * whose backlog drains during the health slices) charges part of each email to nobody, or to
 * /health. Here the slices interleave (health, emails, health, ...), the consumer runs during
 * each email slice, and after it the scenario waits for the backlog to empty before the next
 * health slice starts; the email rate is emails sent over slice time plus drain time.
 *
 * The targets: accepted and sent end to end both ≥ 0.3× /health. What an email costs (D1
 * round trips, workerd CPU) is counted over the email slices and their drains only, from the Worker
 * quiet before each slice to quiet after its drain (work-cost.ts), so /health's CPU is not in it.
 */
import { call, describe, unsentBacklog } from "../lib/api";
import { interleaved, warmUp } from "../lib/measure";
import { sleep } from "../lib/process-group";
import type { BenchContext, Figure, Goal, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const BACKLOG_TIMEOUT_MS = 5 * 60_000;
const POLL_MS = 200;
// Two long slices rather than five short ones: each drain ends with the queue's batch wait (up to 1 s)
// and the polling step, idle time that would otherwise weigh on every short slice.
const ROUNDS = 2;
const GOAL = 0.3;
const ACCEPTED_GOAL = "POST /v1/emails accepted / GET /health req/s";
const SENT_GOAL = "POST /v1/emails sent end-to-end / GET /health req/s";

/** Waits until the queue has sent everything; answers the seconds it took and what was left at the deadline. */
async function drain(ctx: BenchContext) {
  const started = Date.now();
  let left = await unsentBacklog(ctx);
  while (left > 0 && Date.now() - started < BACKLOG_TIMEOUT_MS) {
    await sleep(POLL_MS);
    left = await unsentBacklog(ctx);
  }
  return { seconds: (Date.now() - started) / 1000, left };
}

export const emailSend: Scenario = {
  name: "email-send",
  description: "GET /health vs POST /v1/emails, sent by the queue in the same run",
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const email = {
      from: `Bench <bench@${ctx.fromDomain}>`,
      to: "someone@example.com",
      subject: "Bench",
      text: "Hello",
      html: "<p>Hello</p>",
    };
    const health = { url: `${ctx.baseUrl}/health` };
    const send = {
      url: `${ctx.baseUrl}/v1/emails`,
      method: "POST" as const,
      body: JSON.stringify(email),
      headers: { Authorization: `Bearer ${ctx.token}`, "Content-Type": "application/json" },
    };
    const problems: string[] = [];
    const result: ScenarioResult = { name: emailSend.name, measurements: [], goals: [], problems };

    // autocannon counts failures but keeps no bodies: one call first says why, if sending fails.
    const probe = await call(ctx, "POST", "/v1/emails", email);
    if (probe.status !== 200 || (JSON.parse(probe.text) as { status?: string }).status !== "queued") {
      problems.push(`a single POST /v1/emails answered ${describe(probe)}; not measured`);
      return result;
    }

    await warmUp(health);
    await warmUp(send);
    const drains: number[] = [];
    let left = (await drain(ctx)).left;
    const cost = new WorkCost(ctx);
    const settle = async () => {
      const drained = await drain(ctx);
      drains.push(drained.seconds);
      left = drained.left;
      await cost.stop();
    };
    const [healthFigures, sendFigures] = await interleaved(
      [
        // Its settle opens the cost window of the email slice that follows it.
        { ...health, label: "GET /health", seconds: ctx.seconds, settle: () => cost.start() },
        { ...send, label: "POST /v1/emails (accepted)", seconds: ctx.seconds, settle },
      ],
      ROUNDS,
    );
    if (!healthFigures || !sendFigures) return result;
    result.measurements = [healthFigures, sendFigures];

    const drainSeconds = drains.reduce((sum, s) => sum + s, 0);
    const loadSeconds = sendFigures.rps > 0 ? sendFigures.total / sendFigures.rps : 0;
    const endToEnd = sendFigures.total / (loadSeconds + drainSeconds || 1);
    const ratio = healthFigures.rps > 0 ? endToEnd / healthFigures.rps : 0;
    const accepted = healthFigures.rps > 0 ? sendFigures.rps / healthFigures.rps : 0;
    result.goals = [
      {
        label: ACCEPTED_GOAL,
        value: accepted,
        target: `≥ ${GOAL}×`,
        met: accepted >= GOAL,
        ratio: true,
      } satisfies Goal,
      {
        label: SENT_GOAL,
        value: ratio,
        target: `≥ ${GOAL}×`,
        met: ratio >= GOAL,
        ratio: true,
      } satisfies Goal,
    ];
    const emails = sendFigures.total - sendFigures.non2xx;
    const perEmail = cost.perEmail(emails);
    const figures: Figure[] = [
      { label: "emails accepted and sent per second (load + drain)", value: endToEnd, unit: "emails/s" },
      { label: "backlog drain time after the load slices", value: drainSeconds, unit: "s" },
      ...cost.figures(emails),
    ];
    result.figures = figures;
    const healthRps = healthFigures.rps.toFixed(0);
    const cpuAndTrips = { roundTrips: perEmail.roundTrips, cpuMs: perEmail.cpuMs };
    result.paths = [
      {
        path: "API email (accepted)",
        ...cpuAndTrips,
        throughput: `${accepted.toFixed(2)}× /health (${sendFigures.rps.toFixed(0)} vs ${healthRps} req/s)`,
        goal: ACCEPTED_GOAL,
      },
      {
        path: "API email (sent end to end)",
        ...cpuAndTrips,
        throughput: `${ratio.toFixed(2)}× /health (${endToEnd.toFixed(0)} emails/s vs ${healthRps} req/s)`,
        goal: SENT_GOAL,
      },
    ];
    // The queue consumer's round trips must show in what fetch reads, or the counts are partial.
    if (perEmail.roundTrips !== undefined && !perEmail.byEntry.queue)
      problems.push(
        "no D1 round trip of the queue consumer was counted: it does not share the isolate fetch reads",
      );
    if (left > 0) {
      problems.push(
        `${left} emails were still queued or sending ${BACKLOG_TIMEOUT_MS / 1000} s after a slice`,
      );
    }
    return result;
  },
};
