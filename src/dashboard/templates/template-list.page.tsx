import type { listTemplateOverview } from "../../features/templates/editor";
import { Badge, Empty, Notice, PageHeader, Time } from "../../ui/components";

type Overview = Awaited<ReturnType<typeof listTemplateOverview>>;

const DONE: Record<string, string> = { deleted: "Template deleted." };

export function TemplateListPage(props: {
  list: Overview;
  paged: "after" | "before" | null;
  canManage: boolean;
  done: string | undefined;
  layouts: boolean;
}) {
  const { data, has_more } = props.list;
  const kind = props.layouts ? "&type=layout" : "";
  // Newer templates exist before this page when it was reached by `after`, or by `before` with more.
  const newer = props.paged === "after" || (props.paged === "before" && has_more);
  const older = props.paged === "before" || has_more;
  return (
    <>
      <PageHeader title={props.layouts ? "Layouts" : "Templates"}>
        {props.canManage ? (
          <a
            class="button"
            href={props.layouts ? "/dashboard/templates/new?type=layout" : "/dashboard/templates/new"}
          >
            {props.layouts ? "New layout" : "New template"}
          </a>
        ) : null}
      </PageHeader>
      <nav class="tabs" aria-label="Templates or layouts">
        <a href="/dashboard/templates" aria-current={props.layouts ? undefined : "page"}>
          Templates
        </a>
        <a href="/dashboard/templates?type=layout" aria-current={props.layouts ? "page" : undefined}>
          Layouts
        </a>
      </nav>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <section class="panel">
        {data.length === 0 ? (
          <Empty text={props.layouts ? "No layouts yet." : "No templates yet."} />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Alias</th>
                <th>Status</th>
                <th>Unpublished changes</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {data.map((t) => (
                <tr>
                  <td>
                    <a href={`/dashboard/templates/${t.id}`}>{t.name}</a>
                    {props.layouts ? (
                      <>
                        {" "}
                        <Badge text="layout" tone="neutral" />
                      </>
                    ) : null}
                  </td>
                  <td>{t.alias ? <code>{t.alias}</code> : <span class="muted">–</span>}</td>
                  <td>
                    <Badge text={t.status} tone={t.status === "published" ? "good" : "neutral"} />
                  </td>
                  <td>
                    {t.has_unpublished_versions ? <Badge text="unpublished changes" tone="warn" /> : "–"}
                  </td>
                  <td>
                    <Time at={t.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <nav class="pager">
          {newer && data[0] ? <a href={`/dashboard/templates?before=${data[0].id}${kind}`}>Newer</a> : null}
          {older && data.at(-1) ? (
            <a href={`/dashboard/templates?after=${data.at(-1)?.id}${kind}`}>Older</a>
          ) : null}
        </nav>
      </section>
    </>
  );
}
