import { CsrfField, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import type { GroupDraft } from "./contact-forms";

/** Name and description: the fields a new group and its settings form share. */
export function GroupFields(props: { values: Partial<GroupDraft> }) {
  return (
    <>
      <label>
        Name
        <input name="name" required maxlength={100} value={props.values.name ?? ""} />
      </label>
      <label>
        <span>
          Description <span class="muted">(optional)</span>
        </span>
        <input name="description" maxlength={1000} value={props.values.description ?? ""} />
      </label>
    </>
  );
}

export function NewGroupPage(props: {
  csrfToken: string;
  draft?: GroupDraft | undefined;
  problem?: Problem | undefined;
}) {
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/contacts">Contacts</a>
      </p>
      <PageHeader title="New contact group" />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <form method="post" action="/dashboard/contacts" class="stack">
          <CsrfField token={props.csrfToken} />
          <GroupFields values={props.draft ?? {}} />
          <div class="actions">
            <button type="submit">Create group</button>
          </div>
        </form>
      </section>
    </>
  );
}
