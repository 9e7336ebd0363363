import { CHANGELOG_CATEGORIES, CHANGELOG_STATUSES } from "../../db/schema/changelog";
import type { getChangelogEntry } from "../../features/changelog/changelog.service";
import { Badge, Empty, FilterSelect, Notice, PageHeader, Pager, Time } from "../../ui/components";

export type Entry = Awaited<ReturnType<typeof getChangelogEntry>>;

const DONE: Record<string, string> = { deleted: "Entry deleted." };

const TONES: Record<Entry["status"], "good" | "warn" | "neutral"> = {
  draft: "neutral",
  scheduled: "warn",
  published: "good",
};

export function StatusBadge(props: { status: Entry["status"] }) {
  return <Badge text={props.status} tone={TONES[props.status]} />;
}

/** Where anyone reads the workspace's published entries: the page and its Atom feed. */
export function PublicLinks(props: { accountId: string }) {
  const page = `/changelog/${props.accountId}`;
  return (
    <p class="muted">
      Published entries are public at <a href={page}>{page}</a> and in the{" "}
      <a href={`${page}/feed.xml`}>Atom feed</a>.
    </p>
  );
}

export function ChangelogListPage(props: {
  entries: Entry[];
  total: number;
  limit: number;
  offset: number;
  status: Entry["status"] | undefined;
  category: Entry["category"] | undefined;
  accountId: string;
  canManage: boolean;
  done: string | undefined;
}) {
  return (
    <>
      <PageHeader title="Changelog">
        {props.canManage ? (
          <a class="button" href="/dashboard/changelog/new">
            New entry
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <PublicLinks accountId={props.accountId} />
      <form method="get" action="/dashboard/changelog" class="filters">
        <FilterSelect label="Status" name="status" value={props.status} options={CHANGELOG_STATUSES} />
        <FilterSelect
          label="Category"
          name="category"
          value={props.category}
          options={CHANGELOG_CATEGORIES}
        />
        <button type="submit">Filter</button>
      </form>
      <section class="panel">
        {props.entries.length === 0 ? (
          <Empty text="No changelog entries here yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Title</th>
                <th>Category</th>
                <th>Status</th>
                <th>Published at</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {props.entries.map((entry) => (
                <tr>
                  <td>
                    <a href={`/dashboard/changelog/${entry.id}`}>{entry.title}</a>
                  </td>
                  <td>{entry.category}</td>
                  <td>
                    <StatusBadge status={entry.status} />
                  </td>
                  <td>{entry.published_at ? <Time at={entry.published_at} /> : "–"}</td>
                  <td>
                    <Time at={entry.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/changelog"
          query={{
            status: props.status,
            category: props.category,
            limit: props.limit === 20 ? undefined : props.limit,
          }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
