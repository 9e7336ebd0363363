import { createDb, runBatch } from "../../../../db/client";
import { environmentOf } from "../../../../env";
import { decryptSecret } from "../../../../lib/crypto";
import { iso } from "../../../../lib/time";
import { WEBHOOK_TIMEOUT_MS, WEBHOOK_USER_AGENT } from "../../../../webhooks/deliver";
import { customerData } from "../../../../webhooks/payloads";
import { signatureHeader } from "../../../../webhooks/signature";
import { webhookUrlProblem } from "../../../../webhooks/url-guard";
import type { Step } from "../../steps";
import { claim, earlierOutcome, failed, recordStatement, type StepOutcome, succeeded } from "../history";
import type { Progress } from "../progress";

type WebhookStep = Extract<Step, { type: "webhook" }>;
export const WEBHOOK_STEP_EVENT = "automation.step.webhook";
const MAX_ERROR_LENGTH = 300;

/** product.md's default body; the enrolment is shown at this step, still active. */
export function defaultPayload(p: Progress, step: WebhookStep, now: number) {
  const { enrollment, automation, customer } = p;
  return {
    event: WEBHOOK_STEP_EVENT,
    timestamp: iso(now),
    automation: { id: automation.id, name: automation.name },
    enrollment: { id: enrollment.id, status: enrollment.status, current_step: step.id },
    customer: customer
      ? { ...customerData(customer), metadata: JSON.parse(customer.metadata) as Record<string, unknown> }
      : { id: enrollment.customerId, email: null, name: null, phone: null, metadata: {} },
    trigger: { type: enrollment.triggerType, data: JSON.parse(enrollment.triggerData) as unknown },
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The step's headers, then the service's own, which a configured header cannot replace. */
async function headersFor(step: WebhookStep, p: Progress, secret: string, body: string) {
  const headers = new Headers(step.headers);
  headers.set("Content-Type", "application/json");
  headers.set("User-Agent", WEBHOOK_USER_AGENT);
  headers.set("X-Webhook-Event", WEBHOOK_STEP_EVENT);
  headers.set("X-Webhook-Id", `${p.enrollment.id}:${step.id}`);
  headers.set("X-Service-Signature", await signatureHeader(secret, body, Math.floor(Date.now() / 1000)));
  return headers;
}

/**
 * One request, as inbox webhooks deliver (User-Agent, 10 s timeout, redirects not followed), with
 * the step's method and headers, signed with the automation's own secret. The URL is judged again
 * now: rules may have changed since the automation was saved.
 */
async function call(env: Env, p: Progress, step: WebhookStep, now: number): Promise<StepOutcome> {
  const problem = webhookUrlProblem(step.url, environmentOf(env));
  if (problem) return failed(`not sent: the URL ${problem}`, { status_code: null, duration_ms: 0 });
  const body = JSON.stringify(step.payload ?? defaultPayload(p, step, now));
  const secret = await decryptSecret(env.ENCRYPTION_KEY, p.automation.secretEncrypted);
  const started = Date.now();
  try {
    const response = await fetch(step.url, {
      method: step.method,
      headers: await headersFor(step, p, secret, body),
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    const detail = { status_code: response.status, duration_ms: Date.now() - started };
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return succeeded(detail);
    return failed(`HTTP ${response.status}`, detail);
  } catch (error) {
    const detail = { status_code: null, duration_ms: Date.now() - started };
    return failed(reasonOf(error).slice(0, MAX_ERROR_LENGTH), detail);
  }
}

/** Claims, calls once, records; a failure is recorded and the enrolment goes on (never retried). */
export async function webhookStep(
  env: Env,
  p: Progress,
  step: WebhookStep,
  now: number,
): Promise<StepOutcome> {
  const db = createDb(env.DB);
  if (!(await claim(db, p.enrollment, step, now))) return earlierOutcome(db, p.enrollment, step, now);
  const outcome = await call(env, p, step, now);
  await runBatch(db, [recordStatement(db, p.enrollment, step, outcome, Date.now())]);
  return outcome;
}
