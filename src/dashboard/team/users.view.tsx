import { USER_ROLES } from "../../db/schema";
import type { toUser } from "../../features/users/users.dto";
import { ActionButton, Badge, CsrfField, Empty, Time } from "../../ui/components";

export type User = ReturnType<typeof toUser>;

function RoleForm(props: { user: User; csrfToken: string }) {
  const { user } = props;
  return (
    <form method="post" action={`/dashboard/team/users/${user.id}/role`} class="inline role-form">
      <CsrfField token={props.csrfToken} />
      <label>
        <span class="visually-hidden">Role of {user.email}</span>
        <select name="role">
          {USER_ROLES.map((role) => (
            <option value={role} selected={role === user.role}>
              {role}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="secondary">
        Change role
      </button>
    </form>
  );
}

function UserActions(props: { user: User; csrfToken: string }) {
  const { user, csrfToken } = props;
  const action = `/dashboard/team/users/${user.id}/status`;
  return (
    <div class="actions">
      <RoleForm user={user} csrfToken={csrfToken} />
      {user.status === "active" ? (
        <ActionButton
          action={action}
          label="Disable"
          csrfToken={csrfToken}
          fields={{ status: "disabled" }}
          confirm={`Disable ${user.email}? They are signed out at once and cannot sign in.`}
          danger
        />
      ) : (
        <ActionButton action={action} label="Enable" csrfToken={csrfToken} fields={{ status: "active" }} />
      )}
    </div>
  );
}

/** Away or available, with the button that flips it for the person themself or an admin. */
function Availability(props: { user: User; mayChange: boolean; csrfToken: string }) {
  const { user } = props;
  return (
    <div class="actions">
      {user.available ? <Badge text="available" tone="good" /> : <Badge text="away" tone="warn" />}
      {props.mayChange ? (
        <ActionButton
          action={`/dashboard/team/users/${user.id}/availability`}
          label={user.available ? "Set away" : "Set available"}
          csrfToken={props.csrfToken}
          fields={{ available: user.available ? "false" : "true" }}
        />
      ) : null}
    </div>
  );
}

export function UsersTable(props: { users: User[]; me: string; canManage: boolean; csrfToken: string }) {
  if (props.users.length === 0) return <Empty text="No users." />;
  return (
    <table class="people">
      <thead>
        <tr>
          <th>Name</th>
          <th>Email</th>
          <th>Role</th>
          <th>Status</th>
          <th>Availability</th>
          <th>Last sign-in</th>
          {props.canManage ? <th>Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.users.map((user) => (
          <tr>
            <td>
              {user.name ?? <span class="muted">no name</span>}
              {user.id === props.me ? <span class="muted"> (you)</span> : null}
            </td>
            <td>{user.email}</td>
            <td>
              <Badge text={user.role} />
            </td>
            <td>
              {user.status === "active" ? (
                <Badge text="active" tone="good" />
              ) : (
                <Badge text="disabled" tone="bad" />
              )}
            </td>
            <td>
              <Availability
                user={user}
                mayChange={props.canManage || user.id === props.me}
                csrfToken={props.csrfToken}
              />
            </td>
            <td>
              <Time at={user.last_login_at} />
            </td>
            {props.canManage ? (
              <td>
                <UserActions user={user} csrfToken={props.csrfToken} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
