import { Notice, PageHeader, Pager } from "../../ui/components";
import { type Invitation, InvitationsTable, InviteForm } from "./invitations.view";
import { type User, UsersTable } from "./users.view";

export const TEAM_PAGE_SIZE = 25;

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = {
  invited: "Invitation sent.",
  resent: "Invitation sent again, with a new link.",
  revoked: "Invitation revoked: its link no longer works.",
  role_changed: "Role changed.",
  disabled: "User disabled and signed out.",
  enabled: "User enabled.",
  away: "Set away: assignment rules pass them over.",
  available: "Set available: assignment rules give them tickets again.",
};

export interface TeamPageProps {
  users: User[];
  usersTotal: number;
  offset: number;
  invitations: Invitation[];
  invitationsTotal: number;
  invitationsOffset: number;
  /** Every user's email by id, to name who invited. */
  emails: Map<string, string>;
  me: string;
  canManage: boolean;
  csrfToken: string;
  done: string | undefined;
}

export function TeamPage(props: TeamPageProps) {
  // Each list's pager keeps the other list where it is.
  const query = {
    offset: props.offset || undefined,
    invitations_offset: props.invitationsOffset || undefined,
  };
  return (
    <>
      <PageHeader title="Team" />
      <Notice text={props.done ? DONE[props.done] : undefined} />
      {props.canManage ? (
        <section class="panel" aria-labelledby="invite-heading">
          <h2 id="invite-heading">Invite a person</h2>
          <p class="muted">They get an email with a link valid for 7 days.</p>
          <InviteForm csrfToken={props.csrfToken} />
        </section>
      ) : null}
      <section class="panel" aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        <UsersTable
          users={props.users}
          me={props.me}
          canManage={props.canManage}
          csrfToken={props.csrfToken}
        />
        <Pager
          path="/dashboard/team"
          query={query}
          limit={TEAM_PAGE_SIZE}
          offset={props.offset}
          total={props.usersTotal}
        />
      </section>
      <section class="panel" aria-labelledby="invitations-heading">
        <h2 id="invitations-heading">Pending invitations</h2>
        <InvitationsTable
          invitations={props.invitations}
          emails={props.emails}
          canManage={props.canManage}
          csrfToken={props.csrfToken}
        />
        <Pager
          path="/dashboard/team"
          query={query}
          param="invitations_offset"
          limit={TEAM_PAGE_SIZE}
          offset={props.invitationsOffset}
          total={props.invitationsTotal}
        />
      </section>
    </>
  );
}
