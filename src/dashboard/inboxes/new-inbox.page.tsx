import { ASSIGNMENT_RULES } from "../../db/schema";
import { STATUSES_AFTER_REPLY } from "../../features/inboxes/inboxes.schemas";
import { CsrfField, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "./form-problem";
import type { InboxSettingsDraft } from "./inbox-forms";
import { STATUS_LABELS } from "./inbox-list.page";

/** How the inbox's assignment rules read on its pages. */
export const RULE_LABELS: Record<(typeof ASSIGNMENT_RULES)[number], string> = {
  manual: "Manual",
  round_robin: "Round robin",
  balanced: "Balanced (fewest open tickets)",
};

/** Name, address, status after reply and assignment rule: the fields a new inbox and its settings form share. */
export function InboxFields(props: { values: Partial<InboxSettingsDraft>; addressHint?: string }) {
  const { values } = props;
  return (
    <>
      <label>
        Name
        <input name="name" required maxlength={100} value={values.name ?? ""} />
      </label>
      <label>
        Email address
        <input name="email_address" type="email" required value={values.email_address ?? ""} />
        {props.addressHint ? <small>{props.addressHint}</small> : null}
      </label>
      <label>
        Status after reply
        <select name="status_after_reply">
          {STATUSES_AFTER_REPLY.map((status) => (
            <option value={status} selected={status === (values.status_after_reply ?? "pending")}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Assignment
        <select name="assignment_rule">
          {ASSIGNMENT_RULES.map((rule) => (
            <option value={rule} selected={rule === (values.assignment_rule ?? "manual")}>
              {RULE_LABELS[rule]}
            </option>
          ))}
        </select>
        <small>Who takes a new ticket: see docs/assignment.md.</small>
      </label>
    </>
  );
}

export function NewInboxPage(props: {
  csrfToken: string;
  domains: string[];
  draft?: InboxSettingsDraft | undefined;
  problem?: Problem | undefined;
}) {
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/inboxes">Inboxes</a>
      </p>
      <PageHeader title="New inbox" />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <form method="post" action="/dashboard/inboxes" class="stack">
          <CsrfField token={props.csrfToken} />
          <InboxFields
            values={props.draft ?? {}}
            addressHint={
              props.domains.length > 0
                ? `On a verified domain of this workspace: ${props.domains.join(", ")}.`
                : "This workspace has no verified domain yet: add and verify one (POST /v1/connections) first."
            }
          />
          <div class="actions">
            <button type="submit">Create inbox</button>
          </div>
        </form>
      </section>
    </>
  );
}
