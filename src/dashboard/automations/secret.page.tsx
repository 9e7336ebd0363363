import { PageHeader } from "../../ui/components";
import { SecretValue } from "../inboxes/webhooks.view";

/** The page an automation's secret opens on without script. */
export function SecretPage(props: { automation: { id: string; name: string; secret: string } }) {
  const { automation } = props;
  return (
    <>
      <p class="crumbs">
        <a href={`/dashboard/automations/${automation.id}`}>{automation.name}</a>
      </p>
      <PageHeader title="Automation secret" />
      <section class="panel">
        <dl class="facts">
          <dt>Secret</dt>
          <dd>
            <SecretValue secret={automation.secret} />
          </dd>
        </dl>
        <p class="muted">
          Its webhook steps are signed with it as inbox webhooks are: verify each call's X-Service-Signature,
          HMAC-SHA256 of "timestamp.body" keyed with the whole secret.
        </p>
      </section>
    </>
  );
}
