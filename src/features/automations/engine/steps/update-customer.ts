import { and, eq, sql } from "drizzle-orm";
import { createDb, runBatch } from "../../../../db/client";
import { customers } from "../../../../db/schema";
import type { Step } from "../../steps";
import { claim, earlierOutcome, recordStatement, type StepOutcome, succeeded } from "../history";
import type { Progress } from "../progress";

type UpdateCustomerStep = Extract<Step, { type: "update_customer" }>;

/**
 * Merges the step's metadata into the customer's (a null value removes the key) with one
 * json_patch in SQL, so a concurrent update of other keys is never lost; the step's record commits
 * in the same batch.
 */
export async function updateCustomerStep(
  env: Env,
  p: Progress,
  step: UpdateCustomerStep,
  now: number,
): Promise<StepOutcome> {
  const db = createDb(env.DB);
  if (!(await claim(db, p.enrollment, step, now))) return earlierOutcome(db, p.enrollment, step, now);
  const outcome = succeeded({ keys: Object.keys(step.metadata) });
  await runBatch(db, [
    db
      .update(customers)
      .set({
        metadata: sql`json_patch(${customers.metadata}, ${JSON.stringify(step.metadata)})`,
        updatedAt: now,
      })
      .where(and(eq(customers.id, p.enrollment.customerId), eq(customers.accountId, p.enrollment.accountId))),
    recordStatement(db, p.enrollment, step, outcome, now),
  ]);
  return outcome;
}
