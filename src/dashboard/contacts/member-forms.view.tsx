import { MAX_MEMBERS_PER_CALL } from "../../features/contact-groups/contact-groups.schemas";
import { CsrfField } from "../../ui/components";
import type { MemberDraft } from "./contact-forms";
import type { LineProblem } from "./csv-import";

/** One member by address; the customer is created when the workspace has none with it. */
export function AddMemberForm(props: {
  groupId: string;
  csrfToken: string;
  draft?: MemberDraft | undefined;
}) {
  return (
    <section class="panel" aria-labelledby="add-member-heading">
      <h2 id="add-member-heading">Add a member</h2>
      <form method="post" action={`/dashboard/contacts/${props.groupId}/members`} class="contact-add">
        <CsrfField token={props.csrfToken} />
        <label>
          Email
          <input name="email" type="email" required value={props.draft?.email ?? ""} />
        </label>
        <label>
          <span>
            Name <span class="muted">(optional)</span>
          </span>
          <input name="name" maxlength={200} value={props.draft?.name ?? ""} />
        </label>
        <button type="submit">Add</button>
      </form>
    </section>
  );
}

/** The import's refusals, each with its line, so they can be fixed in the text kept below. */
function LineProblems(props: { problems: LineProblem[] | undefined }) {
  if (!props.problems?.length) return null;
  return (
    <div class="notice error" role="alert">
      <p>Nothing was imported. Fix these lines and import again:</p>
      <ul>
        {props.problems.map((problem) => (
          <li>
            Line {problem.line}: {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ImportForm(props: {
  groupId: string;
  csrfToken: string;
  csv?: string | undefined;
  problems?: LineProblem[] | undefined;
}) {
  return (
    <section class="panel" aria-labelledby="import-heading">
      <h2 id="import-heading">Import a CSV</h2>
      <LineProblems problems={props.problems} />
      <form method="post" action={`/dashboard/contacts/${props.groupId}/import`} class="stack">
        <CsrfField token={props.csrfToken} />
        <label>
          Lines of email,name
          <textarea name="csv" rows={8} required placeholder={"email,name\nada@example.com,Ada Lovelace"}>
            {props.csv ?? ""}
          </textarea>
          <small>
            Up to {MAX_MEMBERS_PER_CALL} rows at a time; the name is optional and a first line email,name is
            skipped. New addresses become customers; members already in the group are skipped.
          </small>
        </label>
        <div class="actions">
          <button type="submit">Import</button>
        </div>
      </form>
    </section>
  );
}
