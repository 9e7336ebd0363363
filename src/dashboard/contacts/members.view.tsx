import type { toMember } from "../../features/contact-groups/contact-groups.dto";
import { ActionButton, Badge, Empty, Pager, Time } from "../../ui/components";

export type Member = ReturnType<typeof toMember>;

export interface MembersPage {
  members: Member[];
  total: number;
  limit: number;
  offset: number;
}

/** The group's members, newest first, each with a Remove button for admins. */
export function MembersPanel(props: {
  groupId: string;
  page: MembersPage;
  canManage: boolean;
  csrfToken: string;
}) {
  const { groupId, page } = props;
  return (
    <section class="panel" aria-labelledby="members-heading">
      <h2 id="members-heading">Members</h2>
      {page.members.length === 0 ? (
        <Empty text="No members yet." />
      ) : (
        <table class="contact-members">
          <thead>
            <tr>
              <th>Email</th>
              <th>Name</th>
              <th>Added</th>
              {props.canManage ? <th aria-label="Actions" /> : null}
            </tr>
          </thead>
          <tbody>
            {page.members.map((member) => (
              <tr>
                <td>
                  {member.email} {member.unsubscribed ? <Badge text="Unsubscribed" tone="warn" /> : null}
                </td>
                <td>{member.name ?? <span class="muted">none</span>}</td>
                <td>
                  <Time at={member.added_at} />
                </td>
                {props.canManage ? (
                  <td>
                    <ActionButton
                      action={`/dashboard/contacts/${groupId}/members/${member.id}/remove`}
                      label="Remove"
                      csrfToken={props.csrfToken}
                      confirm={`Remove ${member.email} from this group? The customer stays.`}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        path={`/dashboard/contacts/${groupId}`}
        query={{ limit: page.limit === 20 ? undefined : page.limit }}
        limit={page.limit}
        offset={page.offset}
        total={page.total}
      />
    </section>
  );
}
