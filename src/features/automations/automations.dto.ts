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

/** What a read key sees of a header value of a webhook step: the receiver's credentials often ride there. */
export const REDACTED_HEADER = "[redacted]";

/**
 * The automation as a read key sees it: no secret, and its webhook steps' header values redacted
 * (their names stay), since an `Authorization` or API-key header is a secret of its receiver's.
 */
export const withoutSecret = (automation: Automation) => ({
  ...automation,
  secret: null,
  steps: automation.steps.map((step) =>
    step.type === "webhook"
      ? {
          ...step,
          headers: Object.fromEntries(Object.keys(step.headers).map((name) => [name, REDACTED_HEADER])),
        }
      : step,
  ),
});
