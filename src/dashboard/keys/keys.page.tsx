import { PERMISSIONS } from "../../auth/permissions";
import type { toApiKey } from "../../features/keys/keys.dto";
import { ActionButton, Badge, CsrfField, Empty, Notice, PageHeader, Pager, Time } from "../../ui/components";

type ApiKey = ReturnType<typeof toApiKey>;

/** What each level allows (product.md, Permissions), in the words of the select. */
const PERMISSION_TEXT: Record<(typeof PERMISSIONS)[number], string> = {
  read: "read: every GET except keys",
  write: "write: read, plus changes to support and workflows",
  admin: "admin: everything, keys and team included",
};

export interface KeysPageProps {
  keys: ApiKey[];
  total: number;
  limit: number;
  offset: number;
  csrfToken: string;
  notice?: string | undefined;
}

/** The list of the workspace's keys, with the form that creates one above it. */
export function KeysPage(props: KeysPageProps) {
  return (
    <>
      <PageHeader title="API keys" />
      <Notice text={props.notice} />
      <CreateKeyForm csrfToken={props.csrfToken} />
      <section class="panel">
        <h2>Keys of this workspace</h2>
        {props.total === 0 ? (
          <Empty text="This workspace has no API keys." />
        ) : (
          <KeysTable keys={props.keys} csrfToken={props.csrfToken} />
        )}
        <Pager
          path="/dashboard/keys"
          query={{ limit: props.limit === 50 ? undefined : props.limit }}
          limit={props.limit}
          offset={props.offset}
          total={props.total}
        />
      </section>
    </>
  );
}

function CreateKeyForm(props: { csrfToken: string }) {
  return (
    <section class="panel">
      <h2>New key</h2>
      <form method="post" action="/dashboard/keys" class="filters">
        <CsrfField token={props.csrfToken} />
        <label>
          Name
          <input name="name" required maxlength={100} placeholder="Production backend" />
        </label>
        <label>
          Permission
          <select name="permission">
            {PERMISSIONS.map((permission) => (
              <option value={permission}>{PERMISSION_TEXT[permission]}</option>
            ))}
          </select>
        </label>
        <button type="submit">Create key</button>
      </form>
      <p class="muted">The token is shown once, right after you create the key. Only its SHA-256 is kept.</p>
    </section>
  );
}

function KeysTable(props: { keys: ApiKey[]; csrfToken: string }) {
  return (
    <table class="keys">
      <thead>
        <tr>
          <th>Name</th>
          <th>Prefix</th>
          <th>Permission</th>
          <th>Last used</th>
          <th>Created</th>
          <th>Status</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {props.keys.map((key) => (
          <tr class={key.is_active ? undefined : "revoked"}>
            <td>{key.name}</td>
            <td>
              <code>{key.key_prefix}…</code>
            </td>
            <td>
              <Badge text={key.permission} tone={key.permission === "admin" ? "warn" : "neutral"} />
            </td>
            <td>
              <Time at={key.last_used_at} />
            </td>
            <td>
              <Time at={key.created_at} />
            </td>
            <td>
              {key.is_active ? <Badge text="active" tone="good" /> : <Badge text="revoked" tone="bad" />}
            </td>
            <td class="num">
              {key.is_active ? (
                <ActionButton
                  action={`/dashboard/keys/${encodeURIComponent(key.id)}/revoke`}
                  label="Revoke"
                  danger
                  csrfToken={props.csrfToken}
                  confirm={`Revoke the key “${key.name}”? Every API request with it is refused from now on. This cannot be undone.`}
                />
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
