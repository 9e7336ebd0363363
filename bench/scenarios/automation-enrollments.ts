/**
 * Automation enrolments: an automation `webhook` → `wait` → `send_email` (capture transport), 1,000
 * customers enrolled through POST /v1/automations/trigger, 20 calls at a time. Reports the trigger
 * calls per second and the time from the first trigger until every enrolment is `completed`, read
 * from GET /v1/automations/{id}/enrollments?status=completed (its `count`); then checks that the
 * loopback receiver got each enrolment's webhook exactly once and that the automation's emails
 * (tag `automation:<id>`) number exactly 1,000. The wait is BENCH_AUTOMATION_WAIT (default `1m`,
 * product.md's smallest realistic wait; `10s` shortens a run). The receiver runs in this process,
 * reachable from a local `wrangler dev` only, so against BENCH_URL the scenario skips. What an
 * automation email costs (D1 round trips, workerd CPU) is the whole enrolment's: its trigger call,
 * its Workflow steps, its webhook and its send, from the Worker quiet before the first trigger to
 * quiet after the last completion (work-cost.ts), divided by the emails; the wait's idle time adds
 * a little workerd CPU. The issue sets no throughput target for this path.
 */
import { randomBytes } from "node:crypto";
import { WebhookReceiver } from "../../test/support/webhook-receiver";
import { call, callOk, countEmails, describe } from "../lib/api";
import { inParallel } from "../lib/inbound-mail";
import { sleep } from "../lib/process-group";
import { receiverScenarioStart } from "../lib/receiver-scenario";
import type { BenchContext, Scenario, ScenarioResult } from "../lib/types";
import { WorkCost } from "../lib/work-cost";

const ENROLMENTS = 1_000;
const CONCURRENCY = 20;
const WAIT = process.env.BENCH_AUTOMATION_WAIT ?? "1m";
const TIMEOUT_MS = 10 * 60_000;
const POLL_MS = 1_000;

/** The parsed JSON of a 201, or an error quoting the answer. */
async function created<T>(ctx: BenchContext, path: string, body: unknown): Promise<T> {
  const answer = await call(ctx, "POST", path, body);
  if (answer.status !== 201) throw new Error(`POST ${path} answered ${describe(answer)}`);
  return JSON.parse(answer.text) as T;
}

async function activeAutomation(ctx: BenchContext, run: string, hookUrl: string) {
  const automation = await created<{ id: string }>(ctx, "/v1/automations", {
    name: `Bench ${run}`,
    trigger: { type: "api" },
    steps: [
      { id: "stp_hook", type: "webhook", url: hookUrl, method: "POST" },
      { id: "stp_wait", type: "wait", duration: WAIT },
      {
        id: "stp_mail",
        type: "send_email",
        from: `Bench <hello@${ctx.fromDomain}>`,
        subject: "Welcome, {{first_name|there}}",
        text: "Hello {{name|there}}",
      },
    ],
  });
  await callOk(ctx, "POST", `/v1/automations/${automation.id}/activate`, {});
  return automation.id;
}

const completedCount = async (ctx: BenchContext, automationId: string) =>
  (
    await callOk<{ count: number }>(
      ctx,
      "GET",
      `/v1/automations/${automationId}/enrollments?status=completed&limit=1`,
    )
  ).count;

export const automationEnrollments: Scenario = {
  name: "automation-enrollments",
  description: `${ENROLMENTS} enrolments through webhook → wait ${WAIT} → send_email, to the last one completed`,
  needsSendingDomain: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const { result, figures, problems, local } = receiverScenarioStart(
      automationEnrollments.name,
      ctx.baseUrl,
    );
    if (!local) return result;
    const receiver = new WebhookReceiver();
    const base = await receiver.listen();
    try {
      const run = randomBytes(4).toString("hex");
      const hookPath = `/${run}/ok`;
      const automationId = await activeAutomation(ctx, run, `${base}${hookPath}`);

      const cost = new WorkCost(ctx);
      await cost.start();
      const started = performance.now();
      const failures: string[] = [];
      await inParallel(
        Array.from({ length: ENROLMENTS }, (_, n) => n),
        CONCURRENCY,
        async (n) => {
          const answer = await call(ctx, "POST", "/v1/automations/trigger", {
            automation_id: automationId,
            customer: { email: `enrol-${n}.${run}@example.com`, name: `Bench ${n}` },
            data: { n },
          }).catch((error: unknown) => ({ status: 0, text: String(error) }));
          if (answer.status !== 201) failures.push(describe(answer));
        },
      );
      const triggerSeconds = (performance.now() - started) / 1000;
      figures.push(
        { label: "trigger calls", value: triggerSeconds, unit: "s" },
        { label: "enrolments per second (trigger calls)", value: ENROLMENTS / triggerSeconds, unit: "/s" },
      );
      if (failures.length > 0) problems.push(`${failures.length} triggers failed, e.g. ${failures[0]}`);

      const expected = ENROLMENTS - failures.length;
      let done = 0;
      let finished: number | undefined;
      while (performance.now() - started < TIMEOUT_MS) {
        done = await completedCount(ctx, automationId);
        if (done >= expected) {
          finished = performance.now();
          break;
        }
        await sleep(POLL_MS);
      }
      await cost.stop();
      const calls = receiver.received.filter((r) => r.path === hookPath);
      const enrolledOnce = new Set(
        calls.map((r) => (JSON.parse(r.body) as { enrollment: { id: string } }).enrollment.id),
      );
      const emails = await countEmails(ctx, { tag: `automation:${automationId}` });
      const perEmail = cost.perEmail(emails);
      result.paths = [
        {
          path: "Automation email",
          roundTrips: perEmail.roundTrips,
          cpuMs: perEmail.cpuMs,
          throughput:
            finished === undefined
              ? `not finished (${done} of ${expected} completed)`
              : `${emails} emails: triggers at ${(ENROLMENTS / triggerSeconds).toFixed(0)}/s, all completed in ${((finished - started) / 1000).toFixed(0)} s (wait ${WAIT})`,
        },
      ];
      figures.push(
        ...cost.figures(emails),
        { label: "enrolments completed", value: done, unit: `of ${expected}` },
        { label: "webhook calls (none twice)", value: calls.length, unit: `of ${expected}` },
        { label: "emails (none twice, none missed)", value: emails, unit: `of ${expected}` },
      );
      if (finished === undefined) {
        problems.push(`${done} of ${expected} enrolments completed after ${TIMEOUT_MS / 60_000} minutes`);
        return result;
      }
      figures.push({
        label: "first trigger to all completed",
        value: (finished - started) / 1000,
        unit: "s",
      });
      if (calls.length !== expected || enrolledOnce.size !== expected || emails !== expected)
        problems.push(
          `expected ${expected} webhook calls and emails, one per enrolment: ${calls.length} calls (${enrolledOnce.size} enrolments), ${emails} emails`,
        );
    } finally {
      await receiver.close();
    }
    return result;
  },
};
