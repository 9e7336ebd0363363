/**
 * Enrolment history for the capacity bench: an automation of three quick steps (a webhook to the
 * bench's loopback receiver, a customer update, a welcome email), customers enrolled through
 * POST /v1/automations/trigger, then a wait until every enrolment is completed, so each leaves one
 * `enrollment_steps` row per step, as real enrolments do.
 */
import { call, callOk, describe } from "./api";
import { inParallel } from "./inbound-mail";
import { sleep } from "./process-group";
import type { BenchContext } from "./types";

const CONCURRENCY = 8;
const POLL_MS = 1_000;

async function welcomeAutomation(ctx: BenchContext, run: string, hookUrl: string): Promise<string> {
  const answer = await call(ctx, "POST", "/v1/automations", {
    name: `Capacity ${run}`,
    trigger: { type: "api" },
    steps: [
      { id: "stp_hook", type: "webhook", url: hookUrl, method: "POST" },
      { id: "stp_mark", type: "update_customer", metadata: { onboarding: "welcomed" } },
      {
        id: "stp_mail",
        type: "send_email",
        from: `Acme <hello@${ctx.fromDomain}>`,
        subject: "Welcome, {{first_name|there}}",
        text: "Hello {{name|there}}, thank you for joining Acme.",
      },
    ],
  });
  if (answer.status !== 201) throw new Error(`POST /v1/automations answered ${describe(answer)}`);
  const { id } = JSON.parse(answer.text) as { id: string };
  await callOk(ctx, "POST", `/v1/automations/${id}/activate`, {});
  return id;
}

const completed = async (ctx: BenchContext, automationId: string) =>
  (
    await callOk<{ count: number }>(
      ctx,
      "GET",
      `/v1/automations/${automationId}/enrollments?status=completed&limit=1`,
    )
  ).count;

/** Enrols `count` new customers and waits (up to `timeoutMs`) for all to complete; answers problems. */
export async function enrolCustomers(
  ctx: BenchContext,
  run: string,
  hookUrl: string,
  count: number,
  timeoutMs: number,
): Promise<string[]> {
  const automationId = await welcomeAutomation(ctx, run, hookUrl);
  const failures: string[] = [];
  await inParallel(
    Array.from({ length: count }, (_, n) => n),
    CONCURRENCY,
    async (n) => {
      const answer = await call(ctx, "POST", "/v1/automations/trigger", {
        automation_id: automationId,
        customer: { email: `member-${n}.${run}@example.com`, name: `Member ${n}` },
      });
      if (answer.status !== 201) failures.push(describe(answer));
    },
  );
  const expected = count - failures.length;
  const until = Date.now() + timeoutMs;
  let done = await completed(ctx, automationId);
  while (done < expected && Date.now() < until) {
    await sleep(POLL_MS);
    done = await completed(ctx, automationId);
  }
  const problems = failures.length > 0 ? [`${failures.length} triggers failed, e.g. ${failures[0]}`] : [];
  if (done < expected) problems.push(`${expected - done} enrolments had not completed in time`);
  return problems;
}
