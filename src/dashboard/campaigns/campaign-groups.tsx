export interface GroupChoice {
  id: string;
  name: string;
  member_count: number;
}

/** The groups the editor shows: every chosen one, whatever its age, then others to pick from. */
export interface GroupPicks {
  chosen: GroupChoice[];
  others: GroupChoice[];
  /** The name search the others answer, if any. */
  search?: string | undefined;
}

/** How many unchosen groups the picker lists: the newest, or the newest whose name matches. */
export const GROUPS_OFFERED = 100;

export const GROUP_CHOICES_PATH = "/dashboard/campaigns/group-choices";

const FIELD = "contact_group_ids";

function GroupBox(props: { group: GroupChoice; checked: boolean }) {
  const { group } = props;
  return (
    <label class="check">
      <input type="checkbox" name={FIELD} value={group.id} checked={props.checked} />
      {group.name} <span class="muted">({group.member_count} members)</span>
    </label>
  );
}

/**
 * The editor's "Send to" fieldset. The chosen groups are always listed (ticked), so a save posts
 * all of them; `groups_shown` tells the save handler that this list was on the page. The search
 * box belongs to the separate GET form `GroupSearch` (HTML cannot nest forms): without script it
 * reloads the page with `group_q`; with htmx, typing swaps this fieldset for one that keeps the
 * ticked boxes and lists the matches.
 */
export function GroupPicker(props: { picks: GroupPicks }) {
  const { chosen, others, search } = props.picks;
  const searchAttrs = {
    "hx-get": GROUP_CHOICES_PATH,
    "hx-trigger": "input changed delay:300ms",
    "hx-include": `#campaign-groups [name='${FIELD}']`,
    "hx-target": "#campaign-groups",
    "hx-swap": "outerHTML",
  };
  return (
    <fieldset id="campaign-groups">
      <legend>Send to</legend>
      <input type="hidden" name="groups_shown" value="1" />
      <div class="inline">
        <label>
          Find a group
          <input
            type="search"
            id="group-search-q"
            name="group_q"
            form="group-search"
            maxlength={200}
            value={search ?? ""}
            placeholder="Part of its name"
            {...searchAttrs}
          />
        </label>
        <button type="submit" form="group-search">
          Search
        </button>
      </div>
      {chosen.map((group) => (
        <GroupBox group={group} checked />
      ))}
      {others.map((group) => (
        <GroupBox group={group} checked={false} />
      ))}
      {chosen.length + others.length === 0 ? (
        <p class="muted">
          {search ? (
            "No group's name contains that."
          ) : (
            <>
              No contact groups yet: make one under <a href="/dashboard/contacts">Contacts</a>.
            </>
          )}
        </p>
      ) : null}
      {others.length === GROUPS_OFFERED ? (
        <p class="muted">
          Showing the {GROUPS_OFFERED} newest{search ? " matching" : ""} groups: search to find others.
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * The search box's own form, placed after the editor's form. Without script a plain GET of the
 * editor page (`action`); with htmx the same swap as typing.
 */
export function GroupSearch(props: { action: string }) {
  return (
    <form
      id="group-search"
      method="get"
      action={props.action}
      hx-get={GROUP_CHOICES_PATH}
      hx-include={`#campaign-groups [name='${FIELD}']`}
      hx-target="#campaign-groups"
      hx-swap="outerHTML"
    />
  );
}
