/**
 * Inbound mail: 1,000 messages through wrangler dev's local email endpoint into the Worker's
 * email() handler, 10 at a time, new conversations and replies in turn. Setup (not measured)
 * opens SEED_TICKETS tickets by mail and answers each through the API as an agent; half of the
 * replies then go to the signed reply address of that answer (as a client honouring Reply-To
 * sends them), half to the inbox's own address, threaded by In-Reply-To and References. Latency
 * is each delivery's request time: the handler answers once the message is stored. Afterwards the
 * API must show every message stored once: a new ticket per new conversation, each reply on its
 * ticket. Last, refusals of an unknown address show what the local endpoint itself can carry; the
 * issue's target is stored mail at ≥ 0.7× that rate in the same run. What a message costs (D1 round
 * trips, workerd CPU, the endpoint's own parsing included) is counted from the Worker quiet before
 * the deliveries to quiet after them (work-cost.ts). The endpoint exists only under `wrangler dev`,
 * so against BENCH_URL the scenario skips.
 */
import { randomBytes } from "node:crypto";
import { quantile } from "../lib/api";
import { cpuSince, groupCpuMs } from "../lib/cpu-profile";
import { messageIdsOf, ticketsOfInbox } from "../lib/inbound-check";
import { deliverTimed, inParallel, type MailSpec, type TimedDelivery } from "../lib/inbound-mail";
import { createInbox, type Seed, seedConversations } from "../lib/inbound-seed";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const NEW_TICKETS = 500;
const REPLIES = 500;
const CONCURRENCY = 10;
const SEED_TICKETS = 100;
const GOAL_SHARE = 0.7;
const RATE_GOAL = "stored messages/s / refusals/s";
const REFUSALS = 600;

type Kind = "new" | "reply";
interface Job {
  kind: Kind;
  mail: MailSpec;
  /** For a reply: the seed it answers. */
  seed?: Seed;
}

/** New conversations and replies in turn; replies spread over the seeds, two ways of threading. */
function traffic(run: string, inbox: string, seeds: Seed[]): Job[] {
  const jobs: Job[] = [];
  for (let n = 0; n < Math.max(NEW_TICKETS, REPLIES); n++) {
    if (n < NEW_TICKETS) {
      const mail = {
        from: `customer-${n}.${run}@example.com`,
        to: inbox,
        subject: `Bench ${run} new ${n}`,
        messageId: `<new-${n}.${run}@customer.example>`,
        body: `Hello,\n\nQuestion number ${n}: how do I reset my password?\n`,
      };
      jobs.push({ kind: "new", mail });
    }
    const s = seeds[n % seeds.length];
    if (n < REPLIES && s) {
      const mail = {
        from: s.customer,
        to: n % 2 === 0 ? s.replyAddress : inbox,
        subject: `Re: ${s.subject}`,
        messageId: `<reply-${n}.${run}@customer.example>`,
        inReplyTo: s.agentId,
        references: [s.firstId, s.agentId],
        body: `Restarted it, reply ${n}.\n\nOn Thu, Support wrote:\n> Please restart it and tell us.\n`,
      };
      jobs.push({ kind: "reply", mail, seed: s });
    }
  }
  return jobs;
}

/** Messages the API does not show as stored: new conversations without their ticket, replies not on theirs. */
async function lost(ctx: BenchContext, inboxId: string, jobs: Job[], seeds: Seed[]) {
  const tickets = await ticketsOfInbox(ctx, inboxId);
  const opened = new Map<string, number>();
  for (const t of tickets) if (t.message_count === 1) opened.set(t.subject, (opened.get(t.subject) ?? 0) + 1);
  const seedIds = seeds.map((s) => s.ticketId);
  const stored = await messageIdsOf(ctx, seedIds);
  const onTicket = new Map(seedIds.map((id, i) => [id, new Set(stored[i])]));
  const newJobs = jobs.filter((j) => j.kind === "new");
  const replyJobs = jobs.filter((j) => j.kind === "reply");
  return {
    newTickets: newJobs.filter((j) => !opened.has(j.mail.subject)).length,
    replies: replyJobs.filter((j) => !onTicket.get(j.seed?.ticketId ?? "")?.has(j.mail.messageId)).length,
    twice: [...opened.values()].filter((count) => count > 1).length,
    repliesAsTickets: tickets.filter((t) => t.subject.startsWith("Re: ")).length,
    unexpectedTickets: tickets.length - SEED_TICKETS - NEW_TICKETS,
  };
}

/**
 * The local endpoint's own ceiling: mail to an unknown address, refused after one lookup. wrangler
 * dev parses and keeps every message it is handed (for its local explorer), in the same workerd as
 * the Worker, so this bounds what stored mail can reach on the same machine.
 */
async function refusalsPerSecond(ctx: BenchContext, run: string, problems: string[]) {
  const cpuBefore = ctx.local && groupCpuMs(ctx.local.processGroup);
  const mails = Array.from({ length: REFUSALS }, (_, n) => ({
    from: `stranger-${n}.${run}@example.com`,
    to: `nobody-${run}@${ctx.fromDomain}`,
    subject: `Bench ${run} stray ${n}`,
    messageId: `<stray-${n}.${run}@customer.example>`,
    body: "Hello?\n",
  }));
  const started = performance.now();
  const answers = await inParallel(mails, CONCURRENCY, (mail) => deliverTimed(ctx.baseUrl, mail));
  const rate = REFUSALS / ((performance.now() - started) / 1000);
  const other = answers.filter((a) => a.outcome !== "rejected").length;
  if (other > 0) problems.push(`${other} mails to an unknown address were not refused`);
  const cpu = ctx.local && cpuBefore ? cpuSince(cpuBefore, groupCpuMs(ctx.local.processGroup)) : undefined;
  return { rate, cpu: cpu && processFigures(cpu, REFUSALS, "refusal") };
}

/**
 * CPU milliseconds per message of each local process (workerd, wrangler's Node), from /proc over
 * the whole phase: what the endpoint itself costs beside the Worker, for stored mail and refusals.
 */
function processFigures(cpu: Map<string, number>, messages: number, unit: string): Figure[] {
  return [...cpu]
    .filter(([, ms]) => ms > 0)
    .map(([command, ms]) => ({
      label: `${command} CPU ms per ${unit} (whole phase)`,
      value: ms / messages,
      unit: "ms",
    }));
}

const sortedMs = (deliveries: TimedDelivery[]) => deliveries.map((d) => d.ms).sort((a, b) => a - b);

export const inboundMail: Scenario = {
  name: "inbound-mail",
  description: `${NEW_TICKETS + REPLIES} inbound mails (half new tickets, half replies), ${CONCURRENCY} at a time`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const figures: Figure[] = [];
    const problems: string[] = [];
    const result: ScenarioResult = { name: inboundMail.name, measurements: [], goals: [], figures, problems };
    if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(ctx.baseUrl)) {
      problems.push("needs a local wrangler dev: the email endpoint exists only there");
      return result;
    }
    const run = randomBytes(4).toString("hex");
    const inbox = `inbound-${run}@${ctx.fromDomain}`;
    const inboxId = await createInbox(ctx, inbox);
    const setupStarted = performance.now();
    const seeds = await seedConversations(
      ctx,
      { id: inboxId, address: inbox },
      { run, count: SEED_TICKETS, concurrency: CONCURRENCY },
    );
    figures.push({
      label: "setup (seed tickets and agent replies)",
      value: (performance.now() - setupStarted) / 1000,
      unit: "s",
    });

    const jobs = traffic(run, inbox, seeds);
    const cost = new WorkCost(ctx);
    await cost.start();
    const cpuBefore = ctx.local && groupCpuMs(ctx.local.processGroup);
    const started = performance.now();
    const deliveries = await inParallel(jobs, CONCURRENCY, (job) => deliverTimed(ctx.baseUrl, job.mail));
    const seconds = (performance.now() - started) / 1000;
    const storedCpu =
      ctx.local && cpuBefore ? cpuSince(cpuBefore, groupCpuMs(ctx.local.processGroup)) : undefined;
    await cost.stop();

    const all = sortedMs(deliveries);
    const refused = deliveries.filter((d) => d.outcome === "rejected" || d.outcome === "failed");
    const unreachable = deliveries.filter((d) => d.outcome === "error");
    const rate = jobs.length / seconds;
    result.measurements.push({
      label: `${jobs.length} mails, ${CONCURRENCY} at a time`,
      rps: rate,
      p50: quantile(all, 0.5),
      p99: quantile(all, 0.99),
      non2xx: refused.length,
      errors: unreachable.length,
      total: jobs.length,
    });
    const missing = await lost(ctx, inboxId, jobs, seeds);
    const lostCount = missing.newTickets + missing.replies;
    result.goals.push({ label: "messages lost", value: lostCount, target: "0", met: lostCount === 0 });
    for (const kind of ["new", "reply"] as const) {
      const ms = sortedMs(deliveries.filter((_, i) => jobs[i]?.kind === kind));
      figures.push(
        { label: `${kind} p50`, value: quantile(ms, 0.5), unit: "ms" },
        { label: `${kind} p99`, value: quantile(ms, 0.99), unit: "ms" },
      );
    }
    figures.push(
      { label: "deliveries refused or failed", value: refused.length + unreachable.length, unit: "" },
      { label: "new conversations without their ticket", value: missing.newTickets, unit: "" },
      { label: "replies not on their ticket", value: missing.replies, unit: "" },
      { label: "replies that opened a ticket instead", value: missing.repliesAsTickets, unit: "" },
    );
    const example = [...refused, ...unreachable][0];
    if (example) problems.push(`e.g. a delivery ${example.outcome}: ${example.reason ?? ""}`);
    if (missing.twice > 0) problems.push(`${missing.twice} new conversations opened more than one ticket`);
    const { rate: refusals, cpu: refusalCpu } = await refusalsPerSecond(ctx, run, problems);
    figures.push(
      ...(storedCpu ? processFigures(storedCpu, jobs.length, "stored message") : []),
      ...(refusalCpu ?? []),
      {
        label: `refusals/s of an unknown address, ${CONCURRENCY} at a time (the endpoint's ceiling)`,
        value: refusals,
        unit: "msg/s",
      },
      ...cost.figures(jobs.length, "inbound message"),
    );
    const share = refusals > 0 ? rate / refusals : 0;
    result.goals.push({
      label: RATE_GOAL,
      value: share,
      target: `≥ ${GOAL_SHARE}×`,
      ratio: true,
      met: share >= GOAL_SHARE && lostCount === 0,
    });
    const perMessage = cost.perEmail(jobs.length);
    result.paths = [
      {
        path: "Inbound message",
        roundTrips: perMessage.roundTrips,
        cpuMs: perMessage.cpuMs,
        throughput: `${share.toFixed(2)}× refusals (${rate.toFixed(0)} vs ${refusals.toFixed(0)} msg/s)`,
        goal: RATE_GOAL,
      },
    ];
    if (missing.unexpectedTickets !== 0)
      problems.push(`the inbox holds ${missing.unexpectedTickets} tickets more than it should`);
    return result;
  },
};
