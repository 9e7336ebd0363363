import { USER_ROLES } from "../../db/schema";
import type { toInvitation } from "../../features/invitations/invitations.dto";
import { ActionButton, CsrfField, Empty, Time } from "../../ui/components";

export type Invitation = ReturnType<typeof toInvitation>;

/** Who invited: a user of the workspace by email, else the id (an API key's, or a removed user's). */
function InvitedBy(props: { id: string; emails: Map<string, string> }) {
  const email = props.emails.get(props.id);
  if (email) return <span>{email}</span>;
  return (
    <span>
      {props.id.startsWith("key_") ? "API key " : ""}
      <code>{props.id}</code>
    </span>
  );
}

export function InvitationsTable(props: {
  invitations: Invitation[];
  emails: Map<string, string>;
  canManage: boolean;
  csrfToken: string;
}) {
  if (props.invitations.length === 0) return <Empty text="No pending invitations." />;
  return (
    <table class="people">
      <thead>
        <tr>
          <th>Email</th>
          <th>Role</th>
          <th>Invited by</th>
          <th>Expires</th>
          {props.canManage ? <th>Actions</th> : null}
        </tr>
      </thead>
      <tbody>
        {props.invitations.map((invitation) => (
          <tr>
            <td>{invitation.email}</td>
            <td>{invitation.role}</td>
            <td>
              <InvitedBy id={invitation.invited_by} emails={props.emails} />
            </td>
            <td>
              <Time at={invitation.expires_at} />
            </td>
            {props.canManage ? (
              <td>
                <div class="actions">
                  <ActionButton
                    action={`/dashboard/team/invitations/${invitation.id}/resend`}
                    label="Resend"
                    csrfToken={props.csrfToken}
                  />
                  <ActionButton
                    action={`/dashboard/team/invitations/${invitation.id}/revoke`}
                    label="Revoke"
                    csrfToken={props.csrfToken}
                    confirm={`Revoke the invitation of ${invitation.email}? Its link stops working.`}
                    danger
                  />
                </div>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function InviteForm(props: { csrfToken: string }) {
  return (
    <form
      method="post"
      action="/dashboard/team/invitations"
      class="filters invite"
      aria-label="Invite a person"
    >
      <CsrfField token={props.csrfToken} />
      <label>
        Email
        <input name="email" type="email" required placeholder="grace@example.com" />
      </label>
      <label>
        Role
        <select name="role">
          {USER_ROLES.map((role) => (
            <option value={role} selected={role === "agent"}>
              {role}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Invite</button>
    </form>
  );
}
