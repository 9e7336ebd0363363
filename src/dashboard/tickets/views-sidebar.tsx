import type { listViews } from "../../features/views/views.service";

type ViewItem = Awaited<ReturnType<typeof listViews>>["data"][number];

const PATH = "/dashboard/tickets";

/** A list's filters as a query string, keys sorted, empty values left out: equal lists, equal strings. */
export function filtersKey(filters: Record<string, string | undefined>): string {
  const entries = Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]));
  return new URLSearchParams(entries.sort(([a], [b]) => a.localeCompare(b))).toString();
}

const viewHref = (view: ViewItem, key: string) => {
  const query = view.builtin ? key : [key, `view=${encodeURIComponent(view.id)}`].filter(Boolean).join("&");
  return query ? `${PATH}?${query}` : PATH;
};

/**
 * The views beside the ticket list, built-in first, each linking to the list it saves; a saved
 * view's link also opens it (`view`), for the forms that change it. The open view is the current
 * one, else any view whose filters are the list's.
 */
export function ViewsSidebar(props: { views: ViewItem[]; current: string; open: string | undefined }) {
  return (
    <nav class="views panel" aria-label="Views">
      <h2>Views</h2>
      <ul class="view-list">
        {props.views.map((view) => {
          const key = filtersKey(view.filters);
          const current = props.open ? view.id === props.open : key === props.current;
          return (
            <li>
              <a
                class="view-link"
                href={viewHref(view, key)}
                aria-current={current ? "page" : undefined}
                data-view={view.id}
              >
                <span class="view-name">{view.name}</span>
                {view.shared ? null : <small class="muted"> (personal)</small>}
                <span class="count">{view.count ?? ""}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
