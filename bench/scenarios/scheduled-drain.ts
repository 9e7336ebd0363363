/**
 * A burst of scheduled email coming due at once: 1,000 emails scheduled for the same moment T,
 * then the time from T until every one is sent. The queue carries them first (each message is
 * delayed until T); the minute cron's sweep enqueues any due email the queue did not take. Locally
 * nothing runs that cron, so the scenario runs it by hand every 10 s, as production's minute would
 * (a little more often). The emails carry a tag unique to the run, so counting them ignores every
 * other email of the workspace.
 */
import { randomBytes } from "node:crypto";
import { type Answer, call, callOk, countEmails, describe, quantile, waitForEmptyQueue } from "../lib/api";
import { sleep } from "../lib/process-group";
import type { BenchContext, Figure, Measurement, Scenario, ScenarioResult } from "../lib/types";

const COUNT = 1_000;
const CONCURRENCY = 50;
const LEAD_MS = 45_000;
const POLL_MS = 500;
const SWEEP_EVERY_MS = 10_000;
const DRAIN_TIMEOUT_MS = 5 * 60_000;
const BACKLOG_TIMEOUT_MS = 5 * 60_000;
const SWEEP_PATH = "/__scheduled?cron=*+*+*+*+*";

interface Creation {
  seconds: number;
  latencies: number[];
  accepted: number;
  non2xx: number;
  errors: number;
  /** Every answer that was not a 200 `scheduled`, by status (or "connection error"), with an example. */
  refused: Map<string, { count: number; example: string }>;
}

/** POSTs the same email `COUNT` times, at most `CONCURRENCY` at once. */
async function createAll(ctx: BenchContext, email: unknown): Promise<Creation> {
  const creation: Creation = {
    seconds: 0,
    latencies: [],
    accepted: 0,
    non2xx: 0,
    errors: 0,
    refused: new Map(),
  };
  const refuse = (key: string, example: string) => {
    const seen = creation.refused.get(key);
    if (seen) seen.count++;
    else creation.refused.set(key, { count: 1, example });
  };
  let started = 0;
  const worker = async () => {
    while (started < COUNT) {
      started++;
      const begun = performance.now();
      let answer: Answer;
      try {
        answer = await call(ctx, "POST", "/v1/emails", email);
      } catch (error) {
        creation.errors++;
        refuse("connection error", error instanceof Error ? error.message : String(error));
        continue;
      }
      creation.latencies.push(performance.now() - begun);
      if (answer.status < 200 || answer.status > 299) creation.non2xx++;
      if (answer.status === 200 && statusOf(answer.text) === "scheduled") creation.accepted++;
      else refuse(String(answer.status), describe(answer));
    }
  };
  const begun = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  creation.seconds = (performance.now() - begun) / 1000;
  creation.latencies.sort((a, b) => a - b);
  return creation;
}

function statusOf(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { status?: string }).status;
  } catch {
    return undefined;
  }
}

interface Sweeps {
  ok: number;
  failed: number;
  firstFailure?: string;
}

/** What production's minute cron does: the sweep that enqueues due emails. */
async function sweep(ctx: BenchContext, sweeps: Sweeps): Promise<void> {
  try {
    const response = await fetch(`${ctx.baseUrl}${SWEEP_PATH}`, { signal: AbortSignal.timeout(60_000) });
    const text = await response.text();
    if (response.ok) sweeps.ok++;
    else {
      sweeps.failed++;
      sweeps.firstFailure ??= describe({ status: response.status, text });
    }
  } catch (error) {
    sweeps.failed++;
    sweeps.firstFailure ??= error instanceof Error ? error.message : String(error);
  }
}

interface Drain {
  /** When the poll first counted every accepted email as sent (ms since epoch), if it did. */
  drainedAt?: number;
  sent: number;
  sentBeforeT: number;
  pollFailures: number;
  firstPollFailure?: string;
  sweeps: Sweeps;
}

/** Polls the sent count every POLL_MS and sweeps every SWEEP_EVERY_MS until all are sent or time is up. */
async function watchDrain(ctx: BenchContext, tag: string, expected: number, at: number): Promise<Drain> {
  const drain: Drain = { sent: 0, sentBeforeT: 0, pollFailures: 0, sweeps: { ok: 0, failed: 0 } };
  const deadline = at + DRAIN_TIMEOUT_MS;
  let nextSweep = Date.now();
  let sweeping: Promise<void> | undefined;
  for (;;) {
    const tick = Date.now();
    if (tick >= nextSweep && sweeping === undefined) {
      nextSweep = tick + SWEEP_EVERY_MS;
      sweeping = sweep(ctx, drain.sweeps).finally(() => {
        sweeping = undefined;
      });
    }
    try {
      drain.sent = await countEmails(ctx, { tag, status: "sent" });
    } catch (error) {
      drain.pollFailures++;
      drain.firstPollFailure ??= error instanceof Error ? error.message : String(error);
    }
    const seen = Date.now();
    if (seen < at) drain.sentBeforeT = drain.sent;
    if (drain.sent >= expected) {
      drain.drainedAt = seen;
      break;
    }
    if (seen >= deadline) break;
    await sleep(Math.max(0, tick + POLL_MS - Date.now()));
  }
  await sweeping;
  return drain;
}

interface Listed {
  status: string;
  sent_at: string | null;
}

/** Every email of the run, for the status breakdown and the server's own send times. */
async function listRun(ctx: BenchContext, tag: string): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let offset = 0; ; offset += 100) {
    const params = new URLSearchParams({ tag, limit: "100", offset: String(offset) });
    const page = await callOk<{ data: Listed[] }>(ctx, "GET", `/v1/emails?${params}`);
    all.push(...page.data);
    if (page.data.length < 100) return all;
  }
}

function countByStatus(emails: Listed[]): string {
  const counts = new Map<string, number>();
  for (const email of emails) counts.set(email.status, (counts.get(email.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${status} ${count}`).join(", ") || "none listed";
}

export const scheduledDrain: Scenario = {
  name: "scheduled-drain",
  description: `${COUNT} emails scheduled for the same moment, time until all are sent`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const problems: string[] = [];
    const figures: Figure[] = [];
    const result: ScenarioResult = {
      name: scheduledDrain.name,
      measurements: [],
      goals: [],
      figures,
      problems,
    };

    // What earlier scenarios left in the queue would be drained along with this run's emails.
    const backlog = await waitForEmptyQueue(ctx, BACKLOG_TIMEOUT_MS);
    if (backlog.left > 0)
      problems.push(`${backlog.left} emails of earlier work were still unsent at the start`);

    const runId = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const tag = `run:${runId}`;
    const at = Date.now() + LEAD_MS;
    const email = {
      from: `Bench <bench@${ctx.fromDomain}>`,
      to: "someone@example.com",
      subject: "Bench",
      text: "Hello",
      html: "<p>Hello</p>",
      scheduled_at: new Date(at).toISOString(),
      tags: [{ name: "run", value: runId }],
    };

    const creation = await createAll(ctx, email);
    const creationFigures: Measurement = {
      label: `POST /v1/emails scheduled (${COUNT}, ${CONCURRENCY} at once)`,
      rps: COUNT / creation.seconds,
      p50: quantile(creation.latencies, 0.5),
      p99: quantile(creation.latencies, 0.99),
      non2xx: creation.non2xx,
      errors: creation.errors,
      total: COUNT,
    };
    result.measurements.push(creationFigures);
    figures.push(
      { label: "creation time", value: creation.seconds, unit: `s for ${COUNT}` },
      { label: "accepted as scheduled", value: creation.accepted, unit: `of ${COUNT}` },
    );
    for (const [key, { count, example }] of creation.refused) {
      problems.push(`${count} POST /v1/emails not accepted as scheduled (${key}), e.g. ${example}`);
    }
    if (Date.now() >= at) {
      problems.push(
        `creating them took past T (${LEAD_MS / 1000} s after the start); some went out unscheduled`,
      );
    }
    if (creation.accepted === 0) return result;

    const waitSeconds = Math.max(0, (at - Date.now()) / 1000);
    console.log(
      `  ${creation.accepted} emails scheduled; T in ${waitSeconds.toFixed(0)} s, then up to ${DRAIN_TIMEOUT_MS / 1000} s to send them...`,
    );
    const drain = await watchDrain(ctx, tag, creation.accepted, at);

    const { sweeps } = drain;
    figures.push({
      label: "sweeps run by hand",
      value: sweeps.ok,
      unit: `(every ${SWEEP_EVERY_MS / 1000} s)`,
    });
    if (sweeps.failed > 0) {
      // Against BENCH_URL there may be no /__scheduled; production's own cron sweeps instead.
      console.warn(
        `  ${sweeps.failed} of ${sweeps.ok + sweeps.failed} GET ${SWEEP_PATH} failed, first: ${sweeps.firstFailure}`,
      );
      figures.push({ label: "sweeps that failed", value: sweeps.failed, unit: "" });
    }
    if (drain.pollFailures > 0) {
      problems.push(`${drain.pollFailures} polls of the sent count failed, first: ${drain.firstPollFailure}`);
    }
    if (drain.sentBeforeT > 0)
      problems.push(`${drain.sentBeforeT} emails were sent before their scheduled_at`);

    if (drain.drainedAt !== undefined) {
      const seconds = (drain.drainedAt - at) / 1000;
      figures.push(
        { label: "drain time (T to last sent, polled every 0.5 s)", value: seconds, unit: "s" },
        { label: "drain rate", value: seconds > 0 ? creation.accepted / seconds : 0, unit: "emails/s" },
      );
    } else {
      figures.push(
        {
          label: `sent within the ${DRAIN_TIMEOUT_MS / 1000} s timeout`,
          value: drain.sent,
          unit: `of ${creation.accepted}`,
        },
        { label: "drain rate", value: drain.sent / (DRAIN_TIMEOUT_MS / 1000), unit: "emails/s" },
      );
    }

    // The server's own record: sent_at is when each send was claimed.
    try {
      const listed = await listRun(ctx, tag);
      const delays = listed
        .flatMap((e) => (e.sent_at ? [(Date.parse(e.sent_at) - at) / 1000] : []))
        .sort((a, b) => a - b);
      if (delays.length > 0) {
        figures.push(
          { label: "sent_at after T, median", value: quantile(delays, 0.5), unit: "s" },
          { label: "sent_at after T, last", value: delays[delays.length - 1] ?? 0, unit: "s" },
        );
      }
      if (drain.drainedAt === undefined) {
        problems.push(
          `only ${drain.sent} of ${creation.accepted} emails were sent ${DRAIN_TIMEOUT_MS / 1000} s after T; by status: ${countByStatus(listed)}`,
        );
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`could not list the run's emails: ${reason}`);
      if (drain.drainedAt === undefined) {
        problems.push(
          `only ${drain.sent} of ${creation.accepted} emails were sent ${DRAIN_TIMEOUT_MS / 1000} s after T`,
        );
      }
    }
    return result;
  },
};
