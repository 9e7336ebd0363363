import { type SQL, sql } from "drizzle-orm";
import type { Hours } from "./business-time";
import type { SlaTargets } from "./sla-policies.schemas";

/** What the ticket clock reads of a policy (sla-policies.service.ts policyTerms gives the same). */
type PolicyTerms = { targets: SlaTargets; hours: Hours; pauseStatuses: string[]; warningBefore: number };

/**
 * Each inbox keeps a copy of the enabled policy that covers it (`inboxes.sla_policy`), so that the
 * writes that start or move a ticket's SLA read it with the inbox they read anyway: a policy costs
 * them no D1 round trip. The copy is written from the policies themselves by one statement in
 * every policy write's batch (and by migration 0053), so it is never older than the policy.
 */
export const refreshInboxPolicies = (accountId: string): SQL =>
  sql`UPDATE inboxes SET sla_policy = (
    SELECT json_object('id', p.id, 'targets', json(p.targets), 'hours', json(p.hours),
      'pause_statuses', json(p.pause_statuses), 'warning_before', p.warning_before)
    FROM sla_policy_inboxes pi JOIN sla_policies p ON p.id = pi.policy_id
    WHERE pi.inbox_id = inboxes.id AND p.enabled = 1
  ) WHERE account_id = ${accountId}`;

interface StoredPolicy {
  id: string;
  targets: PolicyTerms["targets"];
  hours: PolicyTerms["hours"];
  pause_statuses: string[];
  warning_before: number;
}

/** The inbox's enabled policy, its id and terms, or null when none covers it. */
export function inboxPolicy(inbox: { slaPolicy: string | null }): { id: string; terms: PolicyTerms } | null {
  if (!inbox.slaPolicy) return null;
  const stored = JSON.parse(inbox.slaPolicy) as StoredPolicy;
  return {
    id: stored.id,
    terms: {
      targets: stored.targets,
      hours: stored.hours,
      pauseStatuses: stored.pause_statuses,
      warningBefore: stored.warning_before,
    },
  };
}
