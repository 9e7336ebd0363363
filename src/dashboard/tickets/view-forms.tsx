import type { listViews } from "../../features/views/views.service";
import { ActionButton, CsrfField } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { filtersKey } from "./views-sidebar";

type ViewItem = Awaited<ReturnType<typeof listViews>>["data"][number];
type Filters = Record<string, string | undefined>;
type Sharing = "workspace" | "me";

/** A view form the service refused, with what was typed, shown again beside the list. */
export interface Refusal {
  form: "create" | "edit" | "filters";
  problem: Problem;
  values?: { name: string; sharing: Sharing };
}

export interface ViewFormsProps {
  /** The saved view open (`?view=`); never a built-in one, which cannot be changed. */
  open: ViewItem | null;
  refusal: Refusal | undefined;
  csrfToken: string;
}

const viewPath = (id: string) => `/dashboard/tickets/views/${encodeURIComponent(id)}`;

/** The list's filters as hidden fields: the forms save what the list shows now. */
function FilterFields(props: { filters: Filters }) {
  return (
    <>
      {Object.entries(props.filters).map(([name, value]) =>
        value ? <input type="hidden" name={name} value={value} /> : null,
      )}
    </>
  );
}

function NameAndSharing(props: { name: string; sharing: Sharing }) {
  return (
    <>
      <label>
        Name
        <input type="text" name="name" value={props.name} required maxlength={100} size={20} />
      </label>
      <label class="check">
        <input type="radio" name="sharing" value="workspace" checked={props.sharing === "workspace"} />
        Shared with the workspace
      </label>
      <label class="check">
        <input type="radio" name="sharing" value="me" checked={props.sharing === "me"} />
        Only me
      </label>
    </>
  );
}

function SaveAsView(props: ViewFormsProps & { filters: Filters }) {
  const refused = props.refusal?.form === "create" ? props.refusal : undefined;
  return (
    <details class="view-save" open={Boolean(refused)}>
      <summary>Save as view</summary>
      <ProblemNotice problem={refused?.problem} />
      <form method="post" action="/dashboard/tickets/views" class="filters" aria-label="Save as view">
        <CsrfField token={props.csrfToken} />
        <FilterFields filters={props.filters} />
        <NameAndSharing
          name={refused?.values?.name ?? ""}
          sharing={refused?.values?.sharing ?? "workspace"}
        />
        <button type="submit">Save as view</button>
      </form>
    </details>
  );
}

/** Rename, sharing, the filters it saves, delete: what PATCH and DELETE /v1/views/{id} do. */
function ManageView(props: ViewFormsProps & { view: ViewItem; filters: Filters }) {
  const { view, refusal } = props;
  const edit = refusal?.form === "edit" ? refusal : undefined;
  // `updated_after` is not a filter of the dashboard's list, and saving the list's filters keeps it.
  const { updated_after: _kept, ...saved } = view.filters;
  const differs = filtersKey(saved) !== filtersKey(props.filters);
  return (
    <div class="view-manage" data-view={view.id}>
      <ProblemNotice problem={refusal && refusal.form !== "create" ? refusal.problem : undefined} />
      <form method="post" action={`${viewPath(view.id)}/edit`} class="filters" aria-label="Edit view">
        <CsrfField token={props.csrfToken} />
        <FilterFields filters={props.filters} />
        <NameAndSharing
          name={edit?.values?.name ?? view.name}
          sharing={edit?.values?.sharing ?? (view.shared ? "workspace" : "me")}
        />
        <button type="submit">Save view</button>
      </form>
      <div class="actions">
        {differs ? (
          <form
            method="post"
            action={`${viewPath(view.id)}/filters`}
            class="inline"
            aria-label="Save filters to view"
          >
            <CsrfField token={props.csrfToken} />
            <FilterFields filters={props.filters} />
            <button type="submit" class="secondary">{`Save these filters to ${view.name}`}</button>
          </form>
        ) : (
          <small class="muted">The list shows this view's filters.</small>
        )}{" "}
        <ActionButton
          action={`${viewPath(view.id)}/delete`}
          label="Delete view"
          csrfToken={props.csrfToken}
          confirm={`Delete the view ${view.name}? Its tickets stay as they are.`}
          danger
        />
      </div>
    </div>
  );
}

/**
 * The view forms above the list's results. They sit inside the part htmx swaps when a filter
 * changes, so their hidden fields always hold the filters the list shows.
 */
export function ViewForms(props: ViewFormsProps & { filters: Filters }) {
  const applied = filtersKey(props.filters) !== "";
  if (!props.open && !applied) return null;
  return (
    <div class="view-forms">
      {props.open ? <ManageView {...props} view={props.open} /> : null}
      {applied ? <SaveAsView {...props} /> : null}
    </div>
  );
}
