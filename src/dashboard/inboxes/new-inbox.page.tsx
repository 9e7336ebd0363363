import { STATUSES_AFTER_REPLY } from "../../features/inboxes/inboxes.schemas";
import { CsrfField, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "./form-problem";
import type { InboxSettingsDraft } from "./inbox-forms";
import { STATUS_LABELS } from "./inbox-list.page";

/** Name, address and status after reply: the fields a new inbox and its settings form share. */
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
