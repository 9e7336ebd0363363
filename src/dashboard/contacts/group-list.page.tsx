import type { toContactGroup } from "../../features/contact-groups/contact-groups.dto";
import { Empty, Notice, PageHeader, Pager, Time } from "../../ui/components";

export type Group = ReturnType<typeof toContactGroup>;

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = { deleted: "Contact group deleted; its customers stay." };

export function GroupListPage(props: {
  groups: Group[];
  total: number;
  limit: number;
  offset: number;
  canManage: boolean;
  done: string | undefined;
}) {
  return (
    <>
      <PageHeader title="Contacts">
        {props.canManage ? (
          <a class="button" href="/dashboard/contacts/new">
            New group
          </a>
        ) : null}
      </PageHeader>
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <section class="panel">
        {props.groups.length === 0 ? (
          <Empty text="No contact groups yet." />
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Members</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {props.groups.map((group) => (
                <tr>
                  <td>
                    <a href={`/dashboard/contacts/${group.id}`}>{group.name}</a>
                    {group.description ? <div class="muted">{group.description}</div> : null}
                  </td>
                  <td>{group.member_count}</td>
                  <td>
                    <Time at={group.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          path="/dashboard/contacts"
          query={{ limit: props.limit === 20 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}
