import { and, eq, sql } from "drizzle-orm";
import { createDb, runBatch } from "../../../../db/client";
import { customers } from "../../../../db/schema";
import { MAX_METADATA_BYTES } from "../../../../lib/input";
import type { Step } from "../../steps";
import { claim, earlierOutcome, failed, recordStatement, type StepOutcome, succeeded } from "../history";
import type { Progress } from "../progress";

type UpdateCustomerStep = Extract<Step, { type: "update_customer" }>;

/**
 * Merges the step's metadata into the customer's (a null value removes the key) with one
 * json_patch in SQL, so a concurrent update of other keys is never lost. A merge whose result
 * would pass the customer API's metadata limit (MAX_METADATA_BYTES) is refused and the step fails.
 * One batch: the two records are exclusive on the same test, evaluated before the update (nothing
 * else writes the customer inside the batch), so the stored outcome is the update's.
 */
export async function updateCustomerStep(
  env: Env,
  p: Progress,
  step: UpdateCustomerStep,
  now: number,
): Promise<StepOutcome> {
  const db = createDb(env.DB);
  if (!(await claim(db, p.enrollment, step, now))) return earlierOutcome(db, p.enrollment, step, now);
  const own = and(eq(customers.id, p.enrollment.customerId), eq(customers.accountId, p.enrollment.accountId));
  const merged = sql`json_patch(${customers.metadata}, ${JSON.stringify(step.metadata)})`;
  const mergedLength = sql`(SELECT length(CAST(${merged} AS BLOB)) FROM ${customers} WHERE ${own})`;
  const fits = sql`coalesce(${mergedLength}, 0) <= ${MAX_METADATA_BYTES}`;
  const done = succeeded({ keys: Object.keys(step.metadata) });
  const tooBig = failed(`the merged metadata would be over ${MAX_METADATA_BYTES} bytes`);
  const [recordedDone] = await runBatch(db, [
    recordStatement(db, p.enrollment, step, done, now, fits),
    recordStatement(db, p.enrollment, step, tooBig, now, sql`NOT (${fits})`),
    db
      .update(customers)
      .set({ metadata: merged, updatedAt: now })
      .where(and(own, sql`length(CAST(${merged} AS BLOB)) <= ${MAX_METADATA_BYTES}`)),
  ]);
  return (recordedDone?.meta.changes ?? 0) > 0 ? done : tooBig;
}
