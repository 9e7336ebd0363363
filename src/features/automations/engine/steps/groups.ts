import { createDb, runBatch } from "../../../../db/client";
import { contactGroupQuery } from "../../../contact-groups/contact-groups.repo";
import { deleteMember, insertMembers } from "../../../contact-groups/members.repo";
import type { Step } from "../../steps";
import { claim, earlierOutcome, failed, recordStatement, type StepOutcome, succeeded } from "../history";
import type { Progress } from "../progress";

type GroupStep = Extract<Step, { type: "add_to_group" | "remove_from_group" }>;

/**
 * Adds the customer to, or removes it from, a contact group through the groups' own repository (its
 * triggers keep `member_count`). A group deleted since the automation was saved fails the step;
 * the enrolment goes on.
 */
export async function groupStep(env: Env, p: Progress, step: GroupStep, now: number): Promise<StepOutcome> {
  const db = createDb(env.DB);
  const { accountId, customerId } = p.enrollment;
  const groupId = step.contact_group_id;
  if (!(await claim(db, p.enrollment, step, now))) return earlierOutcome(db, p.enrollment, step, now);
  let outcome: StepOutcome;
  if (step.type === "add_to_group") {
    const [group, added] = await runBatch(db, [
      contactGroupQuery(db, accountId, groupId),
      insertMembers(accountId, groupId, { column: "id", values: [customerId] }, now),
    ]);
    outcome = group?.results.length
      ? succeeded({ contact_group_id: groupId, changed: (added?.results.length ?? 0) > 0 })
      : failed(`contact group ${groupId} not found`, { contact_group_id: groupId });
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
