import { decryptSecret } from "../../lib/crypto";
import { iso } from "../../lib/time";
import type { AutomationRow } from "./automations.repo";
import type { TriggerInput } from "./automations.schemas";
import type { Step } from "./steps";

/** The trigger object of a stored automation. */
export function triggerOf(row: Pick<AutomationRow, "triggerType" | "triggerRef">): TriggerInput {
  if (row.triggerType === "group_joined")
    return { type: "group_joined", contact_group_id: row.triggerRef ?? "" };
  if (row.triggerType === "ticket_resolved")
    return { type: "ticket_resolved", inbox_id: row.triggerRef ?? "" };
  return { type: "api" };
}

export const stepsOf = (row: Pick<AutomationRow, "steps">) => JSON.parse(row.steps) as Step[];

/** The public automation; async because its secret is decrypted on the way out, as inbox webhooks'. */
export async function toAutomation(row: AutomationRow, encryptionKey: string) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    trigger: triggerOf(row),
    steps: stepsOf(row),
    allow_reentry: row.allowReentry,
    secret: await decryptSecret(encryptionKey, row.secretEncrypted),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export type Automation = Awaited<ReturnType<typeof toAutomation>>;

/** The automation as a read key sees it: everything but its secret. */
export const withoutSecret = (automation: Automation) => ({ ...automation, secret: null });
