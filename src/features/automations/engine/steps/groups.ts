import { createDb, runBatch } from "../../../../db/client";
import { AppError } from "../../../../lib/errors";
import { contactGroupQuery } from "../../../contact-groups/contact-groups.repo";
import { groupNotFound } from "../../../contact-groups/contact-groups.service";
import { deleteMember } from "../../../contact-groups/members.repo";
import { addMembers } from "../../../contact-groups/members.service";
import type { Step } from "../../steps";
import type { StepCause } from "../../triggers";
import { claim, earlierOutcome, failed, recordStatement, type StepOutcome, succeeded } from "../history";
import type { Progress } from "../progress";

type GroupStep = Extract<Step, { type: "add_to_group" | "remove_from_group" }>;

/**
 * Adds the customer to a group through the very service the API's POST .../members calls, so a
 * customer who joins is enrolled into the group's `group_joined` automations here too (and their
 * runs start). A customer already a member is not added again, but one removed first is: the
 * enrolments this step makes are held to the loop bound (loop-bound.ts), and those it refused are
 * in the step's detail as `refused_enrollments`.
 */
async function addToGroup(env: Env, p: Progress, groupId: string, now: number): Promise<StepOutcome> {
  const { accountId, customerId } = p.enrollment;
  const cause: StepCause = { enrollmentId: p.enrollment.id, refused: [] };
  const ctx = { db: createDb(env.DB), env, accountId, now, cause };
  try {
    const { added } = await addMembers(ctx, groupId, { members: [{ customer_id: customerId }] });
    const refused = cause.refused.length > 0 ? { refused_enrollments: cause.refused } : {};
    return succeeded({ contact_group_id: groupId, changed: added > 0, ...refused });
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 404) throw error;
    const groupGone = error.detail === groupNotFound(groupId).detail;
    return failed(groupGone ? `contact group ${groupId} not found` : (error.detail ?? error.error), {
      contact_group_id: groupId,
    });
  }
}

/**
 * Adds the customer to, or removes it from, a contact group (the groups' triggers keep
 * `member_count`). A group deleted since the automation was saved fails the step; the enrolment
 * goes on.
 */
export async function groupStep(env: Env, p: Progress, step: GroupStep, now: number): Promise<StepOutcome> {
  const db = createDb(env.DB);
  const { accountId, customerId } = p.enrollment;
  const groupId = step.contact_group_id;
  if (!(await claim(db, p.enrollment, step, now))) return earlierOutcome(db, p.enrollment, step, now);
  let outcome: StepOutcome;
  if (step.type === "add_to_group") {
    outcome = await addToGroup(env, p, groupId, now);
  } else {
    const removed = await deleteMember(db, accountId, groupId, customerId);
    const [group] = removed ? [true] : await contactGroupQuery(db, accountId, groupId);
    outcome = group
      ? succeeded({ contact_group_id: groupId, changed: removed })
      : failed(`contact group ${groupId} not found`, { contact_group_id: groupId });
  }
  await runBatch(db, [recordStatement(db, p.enrollment, step, outcome, Date.now())]);
  return outcome;
}
