import { type SQL, sql } from "drizzle-orm";
import { createDb, type Db, runBatch } from "../../../../db/client";
import { enrollmentSteps } from "../../../../db/schema";
import { AppError } from "../../../../lib/errors";
import { domainOf, parseAddress } from "../../../../mail/address";
import { deliveryOutcomes } from "../../../../mail/delivery-outcomes";
import { unsubscribeHeaders, unsubscribeUrl } from "../../../../mail/unsubscribe-token";
import { acceptedStatements, prepareEmails } from "../../../emails/emails.accept";
import { normalizeEmail } from "../../../emails/emails.input";
import type { EmailRow } from "../../../emails/emails.repo";
import { enqueueEmails } from "../../../emails/enqueue";
import { loadSendState } from "../../../emails/send-state";
import type { Step } from "../../steps";
import {
  claimStatement,
  earlierOutcome,
  failed,
  moveStatement,
  type StepOutcome,
  skipped,
  succeeded,
} from "../history";
import type { Progress } from "../progress";
import { isOutcome, type StepContent, stepContent } from "./step-content";

type EmailStep = Extract<Step, { type: "send_email" }>;

/**
 * The link of the one-click unsubscribe. Its token names a customer and a campaign; an automation
 * email names the automation's ULID in the campaign's place, which no campaign has, so the
 * unsubscribe page unsubscribes the customer and counts it against no campaign.
 */
const linkFor = (env: Env, p: Progress) =>
  unsubscribeUrl(
    env,
    { customerId: p.enrollment.customerId, campaignId: `cmp_${p.automation.id.slice(4)}` },
    p.enrollment.accountId,
  );

/** The step's email to the enrolled customer: its content, the unsubscribe link and headers. */
function emailFor(
  p: Progress,
  step: EmailStep,
  email: string,
  url: string,
  content: StepContent,
  now: number,
) {
  const { template, ...body } = content;
  const normalized = normalizeEmail(
    {
      from: step.from,
      to: email,
      ...(step.reply_to ? { reply_to: step.reply_to } : {}),
      ...body,
      headers: unsubscribeHeaders(url),
      // GET /v1/emails?tag=automation:<id> lists the automation's emails.
      tags: [{ name: "automation", value: p.automation.id }],
    },
    now,
  );
  return template ? { ...normalized, template } : normalized;
}

/**
 * The claim and the outcome at once: the history row of a step that acted in the same batch;
 * `before` runs first in that batch (what counts the outcome, guarded by the claim not yet made).
 */
async function settleOnly(
  db: Db,
  p: Progress,
  step: EmailStep,
  outcome: StepOutcome,
  now: number,
  before: SQL[] = [],
) {
  const results = await runBatch(db, [
    ...before,
    claimStatement(p.enrollment, step, now, outcome),
    moveStatement(db, p.enrollment, step, now),
  ]);
  const claimed = results[before.length];
  return (claimed?.meta.changes ?? 0) > 0 ? outcome : earlierOutcome(db, p.enrollment, step, now);
}

/**
 * Sends the step's email through the pipeline of POST /v1/emails (sender domain, quotas,
 * suppressions, size, tracking; DKIM at delivery). An unsubscribed customer is skipped, a suppressed
 * address too, both recorded. The email row is written in the same D1 batch as the step's claim and
 * only if that claim is this run's (it names the email), so a retried step never writes a second one.
 */
export async function sendEmailStep(
  env: Env,
  p: Progress,
  step: EmailStep,
  now: number,
): Promise<StepOutcome> {
  const db = createDb(env.DB);
  const customer = p.customer;
  if (!customer) return settleOnly(db, p, step, failed("the customer no longer exists"), now);
  if (customer.unsubscribed) return settleOnly(db, p, step, skipped("unsubscribed"), now);
  const url = await linkFor(env, p);
  const content = await stepContent(db, p, step, customer, url);
  // A template gone or unpublished fails the step; a value missing skips it: the run goes on.
  if (isOutcome(content)) return settleOnly(db, p, step, content, now);
  const from = parseAddress(step.from);
  const state = await loadSendState(
    db,
    p.enrollment.accountId,
    [from ? domainOf(from.address) : ""],
    [customer.email],
    null,
    now,
  );
  if (!state.account) return settleOnly(db, p, step, failed("the workspace no longer exists"), now);
  if (state.suppressed.length > 0)
    return settleOnly(db, p, step, skipped("suppressed", { email: customer.email }), now, [
      // Counted before the claim, only while the step has none: once, however often it runs.
      ...deliveryOutcomes.suppressed(
        p.enrollment.accountId,
        [
          {
            tags: [{ name: "automation", value: p.automation.id }],
            recipients: [customer.email],
            from: step.from,
            subject: content.subject,
            automationId: p.automation.id,
          },
        ],
        () =>
          sql`NOT EXISTS (SELECT 1 FROM ${enrollmentSteps} WHERE enrollment_id = ${p.enrollment.id} AND step_id = ${step.id})`,
        now,
      ),
    ]);
  try {
    const email = emailFor(p, step, customer.email, url, content, now);
    const prepared = await prepareEmails(
      { db, files: env.FILES, account: state.account, state, now },
      [email],
      "automation",
      0,
      {
        holds: (email) =>
          sql`EXISTS (SELECT 1 FROM ${enrollmentSteps} WHERE enrollment_id = ${p.enrollment.id} AND step_id = ${step.id} AND detail ->> 'email_id' = ${email.id})`,
      },
    );
    const row = prepared.rows[0] as EmailRow;
    const outcome = succeeded({ email_id: row.id });
    let won = false;
    try {
      const [claimed] = await runBatch(db, [
        claimStatement(p.enrollment, step, now, outcome),
        moveStatement(db, p.enrollment, step, now),
        ...prepared.statements,
        // Counts the email only if this run's claim wrote it.
        ...acceptedStatements(prepared.rows),
      ]);
      won = (claimed?.meta.changes ?? 0) > 0;
    } finally {
      if (!won) await prepared.abort();
    }
    if (!won) return earlierOutcome(db, p.enrollment, step, now);
    await enqueueEmails(env.EMAIL_QUEUE, [row], now);
    return outcome;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Refused by the pipeline (domain, quota, size, an invalid address): recorded, the run goes on.
    return settleOnly(db, p, step, failed(`${error.code}: ${error.detail ?? error.error}`), now);
  }
}
