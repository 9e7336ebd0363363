import { ActionButton, CsrfField, Notice, PageHeader, Time } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import type { GroupDraft, MemberDraft } from "./contact-forms";
import type { LineProblem } from "./csv-import";
import type { Group } from "./group-list.page";
import { AddMemberForm, ImportForm } from "./member-forms.view";
import { type MembersPage, MembersPanel } from "./members.view";
import { GroupFields } from "./new-group.page";

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = {
  created: "Contact group created.",
  saved: "Saved.",
  added: "Member added.",
  already: "Already a member: nothing changed.",
  removed: "Member removed; the customer stays.",
};

export interface GroupPageProps {
  group: Group;
  members: MembersPage;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  imported?: { added: number; skipped: number } | undefined;
  problem?: Problem | undefined;
  groupDraft?: GroupDraft | undefined;
  memberDraft?: MemberDraft | undefined;
  csv?: string | undefined;
  csvProblems?: LineProblem[] | undefined;
}

function Settings(props: GroupPageProps) {
  const { group } = props;
  return (
    <section class="panel" aria-labelledby="settings-heading">
      <h2 id="settings-heading">Settings</h2>
      <form method="post" action={`/dashboard/contacts/${group.id}`} class="stack">
        <CsrfField token={props.csrfToken} />
        <GroupFields values={props.groupDraft ?? { ...group, description: group.description ?? "" }} />
        <div class="actions">
          <button type="submit">Save</button>
        </div>
      </form>
    </section>
  );
}

function About(props: { group: Group }) {
  const { group } = props;
  return (
    <section class="panel">
      <dl class="facts">
        <dt>Id</dt>
        <dd>
          <code>{group.id}</code>
        </dd>
        <dt>Members</dt>
        <dd>{group.member_count}</dd>
        <dt>Created</dt>
        <dd>
          <Time at={group.created_at} />
        </dd>
      </dl>
    </section>
  );
}

export function GroupPage(props: GroupPageProps) {
  const { group, imported } = props;
  const importedText = imported
    ? `Imported: added ${imported.added}, skipped ${imported.skipped}.`
    : undefined;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/contacts">Contacts</a>
      </p>
      <PageHeader title={group.name} />
      {group.description ? <p class="subtitle">{group.description}</p> : null}
      <Notice text={importedText ?? (props.done ? DONE[props.done] : undefined)} />
      <ProblemNotice problem={props.problem} />
      <About group={group} />
      <MembersPanel
        groupId={group.id}
        page={props.members}
        canManage={props.canManage}
        csrfToken={props.csrfToken}
      />
      {props.canManage ? (
        <>
          <AddMemberForm groupId={group.id} csrfToken={props.csrfToken} draft={props.memberDraft} />
          <ImportForm
            groupId={group.id}
            csrfToken={props.csrfToken}
            csv={props.csv}
            problems={props.csvProblems}
          />
          <Settings {...props} />
          <section class="panel danger-zone" aria-labelledby="delete-heading">
            <h2 id="delete-heading">Delete this group</h2>
            <p class="muted">Its memberships go with it; the customers stay.</p>
            <ActionButton
              action={`/dashboard/contacts/${group.id}/delete`}
              label="Delete"
              csrfToken={props.csrfToken}
              confirm={`Delete the contact group ${group.name}?`}
              danger
            />
          </section>
        </>
      ) : null}
    </>
  );
}
