/**
 * What the retention job costs per email it archives and deletes (issue 43): a free workspace
 * (30 days kept) holding RETENTION_EMAILS emails 31 to 35 days old (bench/lib/retention-seed.ts),
 * then the minute cron run by hand (GET /__scheduled), one run after another, until the workspace
 * holds none. One WorkCost window covers every run: D1 round trips and workerd CPU per archived
 * email, with the same per run of a cron that finds nothing to archive measured apart, so the
 * archiving's own share shows. Then what a client gets is checked (bench/lib/retention-check.ts).
 * The runs follow each other at once, not a minute apart: each one still stops at its own budget
 * (30 parts of 1,000 emails or 20 s a shard), so the figures per run are production's.
 * RETENTION_HTML_BYTES (1,000 by default) sets the size of each email's HTML body, which the
 * archive leaves out but the rows still carry.
 */
import { loadavg } from "node:os";
import { messageKey } from "../../src/features/emails/message-key";
import { call, describe } from "../lib/api";
import { checkArchives } from "../lib/retention-check";
import {
  archiveTotals,
  emailsLeft,
  localObjectExists,
  OBJECT_EVERY,
  type RetentionWorkspace,
  seedRetentionWorkspace,
} from "../lib/retention-seed";
import { retried } from "../lib/retried";
import type { BenchContext, Figure, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const CRON_PATH = "/__scheduled?cron=*+*+*+*+*";
const CRON_TIMEOUT_MS = 180_000;
/** Runs that archive nothing while emails are left, in a row, before the scenario gives up. */
const STUCK_RUNS = 2;

/** A positive integer from the environment, or `fallback` when it is not set. */
function fromEnv(name: string, fallback: number): number {
  const text = process.env[name] ?? String(fallback);
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, not "${text}"`);
  return value;
}

const load = () => Number((loadavg()[0] ?? 0).toFixed(2));

/** One run of the minute cron, as production's scheduler would start it; answers its wall seconds. */
async function runCron(ctx: BenchContext): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${ctx.baseUrl}${CRON_PATH}`, {
    signal: AbortSignal.timeout(CRON_TIMEOUT_MS),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`GET ${CRON_PATH} answered ${describe({ status: response.status, text })}`);
  return (performance.now() - started) / 1000;
}

interface Run {
  seconds: number;
  archived: number;
}

/** Cron runs until the workspace holds no email, counted in its shard after each. */
async function drain(ctx: BenchContext, w: RetentionWorkspace, problems: string[]): Promise<Run[]> {
  const runs: Run[] = [];
  let left = w.emails;
  let idle = 0;
  while (left > 0) {
    const seconds = await runCron(ctx);
    const now = await emailsLeft(w);
    runs.push({ seconds, archived: left - now });
    console.log(
      `  run ${runs.length}: ${left - now} emails archived in ${seconds.toFixed(1)} s, ${now} left`,
    );
    idle = now === left ? idle + 1 : 0;
    left = now;
    if (idle >= STUCK_RUNS) {
      problems.push(`${left} emails were left after ${STUCK_RUNS} runs in a row archived none`);
      break;
    }
  }
  return runs;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function runFigures(runs: Run[]): Figure[] {
  const working = runs.filter((r) => r.archived > 0);
  const seconds = working.map((r) => r.seconds);
  const archived = working.map((r) => r.archived);
  return [
    { label: "cron runs until no email was left", value: runs.length, unit: "" },
    {
      label: "wall seconds per cron run that archived",
      value: sum(seconds) / (seconds.length || 1),
      unit: "s (mean)",
    },
    { label: "wall seconds of the longest cron run", value: Math.max(0, ...seconds), unit: "s" },
    { label: "emails archived per cron run", value: sum(archived) / (archived.length || 1), unit: "(mean)" },
    { label: "emails archived by the largest cron run", value: Math.max(0, ...archived), unit: "" },
    {
      label: "emails archived per wall second of cron",
      value: sum(archived) / (sum(seconds) || 1),
      unit: "emails/s",
    },
  ];
}

export const emailRetention: Scenario = {
  name: "email-retention",
  description:
    "the retention job archiving and deleting a free workspace's emails past 30 days: cost per email",
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const problems: string[] = [];
    const figures: Figure[] = [{ label: "load average (1 min) at start", value: load(), unit: "" }];
    const result: ScenarioResult = {
      name: emailRetention.name,
      measurements: [],
      goals: [],
      figures,
      problems,
    };
    if (!ctx.local) {
      problems.push(
        "it seeds the local D1 and R2 through wrangler, so it cannot measure BENCH_URL; not measured",
      );
      return result;
    }
    const count = fromEnv("RETENTION_EMAILS", 20_000);
    const htmlBytes = fromEnv("RETENTION_HTML_BYTES", 1_000);
    const w = await seedRetentionWorkspace(count, htmlBytes);
    const days = [...w.perDay.keys()];
    console.log(
      `  ${count} emails over ${days.length} days in shard ${w.shard}, ${w.withObject.length} with a message in R2; running the minute cron...`,
    );
    figures.push(
      {
        label: `emails seeded (31 to 35 days old, shard ${w.shard})`,
        value: count,
        unit: `over ${days.length} days`,
      },
      { label: "HTML body of each email (text: half as long), not archived", value: htmlBytes, unit: "B" },
      { label: "seeding the emails, recipients, tags and events", value: w.seedSeconds, unit: "s" },
      {
        label: `built messages put in the local R2 (1 email in ${OBJECT_EVERY})`,
        value: w.withObject.length,
        unit: "",
      },
      { label: "putting them", value: w.objectSeconds, unit: "s" },
    );
    const [sample] = w.withObject;
    if (sample) {
      const content = await retried(() =>
        call({ ...ctx, token: w.token }, "GET", `/v1/emails/${sample}/content`),
      );
      if (content.status !== 200)
        problems.push(
          `the server does not see a seeded message (GET /v1/emails/{id}/content: ${describe(content)})`,
        );
    }

    const cost = new WorkCost(ctx);
    await cost.start();
    const runs = await drain(ctx, w, problems);
    await cost.stop();
    const archived = sum(runs.map((r) => r.archived));
    // A run with nothing to archive: the rest of the minute cron, paid by every run above as well.
    const idle = new WorkCost(ctx);
    await idle.start();
    const idleSeconds = await runCron(ctx);
    await idle.stop();

    // Per 1,000 emails: per email, a run's few round trips would read 0.00.
    const thousands = archived / 1000;
    figures.push(...runFigures(runs), ...cost.figures(thousands, "1,000 archived emails"));
    const total = cost.perEmail(archived);
    const perRun = idle.perEmail(1);
    figures.push(
      {
        label: "D1 round trips of a cron run with nothing to archive",
        value: perRun.roundTrips ?? 0,
        unit: "",
      },
      { label: "workerd CPU ms of a cron run with nothing to archive", value: perRun.cpuMs ?? 0, unit: "ms" },
      { label: "wall seconds of a cron run with nothing to archive", value: idleSeconds, unit: "s" },
    );
    if (total.roundTrips !== undefined && perRun.roundTrips !== undefined)
      figures.push({
        label: "D1 round trips per 1,000 archived emails, less the rest of each cron run",
        value: (total.roundTrips - (runs.length * perRun.roundTrips) / (archived || 1)) * 1000,
        unit: "",
      });
    if (total.cpuMs !== undefined && perRun.cpuMs !== undefined)
      figures.push({
        label: "workerd CPU ms per 1,000 archived emails, less the rest of each cron run",
        value: (total.cpuMs - (runs.length * perRun.cpuMs) / (archived || 1)) * 1000,
        unit: "ms",
      });

    const totals = await archiveTotals(w);
    figures.push(
      {
        label: "archive bytes per email (gzip NDJSON)",
        value: totals.bytes / (totals.emails || 1),
        unit: "B",
      },
      { label: "archive parts", value: totals.parts, unit: `over ${totals.days} days` },
      { label: "storage counted for the emails before, per email", value: w.storedBytes / count, unit: "B" },
    );
    if (totals.emails !== count)
      problems.push(`the archive holds ${totals.emails} emails, the seed wrote ${count}`);
    if (totals.writing !== 0) problems.push(`${totals.writing} parts are left 'writing'`);
    if (totals.storage !== totals.bytes)
      problems.push(`the workspace's storage is ${totals.storage} bytes, its archive ${totals.bytes}`);
    const check = await checkArchives(ctx, w);
    problems.push(...check.problems);
    figures.push({ label: "archive line bytes before gzip, per email", value: check.lineBytes, unit: "B" });
    if (sample && localObjectExists(messageKey(sample)))
      problems.push(`the built message of archived email ${sample} is still in R2`);
    figures.push({ label: "load average (1 min) at end", value: load(), unit: "" });
    result.paths = [
      {
        path: "Retention (archive + delete)",
        roundTrips: total.roundTrips,
        cpuMs: total.cpuMs,
        throughput: `${archived} emails in ${runs.length} cron runs, ${(archived / (sum(runs.map((r) => r.seconds)) || 1)).toFixed(0)}/s`,
      },
    ];
    return result;
  },
};
