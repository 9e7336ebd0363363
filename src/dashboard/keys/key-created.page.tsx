import type { createKey } from "../../features/keys/keys.service";
import { Badge, PageHeader, Time } from "../../ui/components";

type CreatedKey = Awaited<ReturnType<typeof createKey>>;

/**
 * The one page that ever shows a key's token: the answer to the Create key form. Nothing keeps
 * the token for later, so leaving the page loses it.
 */
export function KeyCreatedPage(props: { created: CreatedKey }) {
  const { created } = props;
  return (
    <>
      <PageHeader title="Key created" />
      <section class="panel">
        <p class="notice warn" role="alert">
          {created.warning}
        </p>
        <h2>Token</h2>
        <p class="secret">{created.token}</p>
        <dl class="facts">
          <dt>Name</dt>
          <dd>{created.name}</dd>
          <dt>Prefix</dt>
          <dd>
            <code>{created.key_prefix}…</code>
          </dd>
          <dt>Permission</dt>
          <dd>
            <Badge text={created.permission} tone={created.permission === "admin" ? "warn" : "neutral"} />
          </dd>
          <dt>Created</dt>
          <dd>
            <Time at={created.created_at} />
          </dd>
        </dl>
        <p>
          Send it as <code>Authorization: Bearer &lt;token&gt;</code> on every API request.
        </p>
        <p>
          <a href="/dashboard/keys">Back to API keys</a>
        </p>
      </section>
    </>
  );
}
