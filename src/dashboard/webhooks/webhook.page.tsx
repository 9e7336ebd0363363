import type { Child } from "hono/jsx";
import type { EmailWebhook } from "../../features/email-webhooks/email-webhooks.service";
import { ActionButton, CsrfField, Notice, PageHeader } from "../../ui/components";
import { type Problem, ProblemNotice } from "../inboxes/form-problem";
import { SecretValue } from "../inboxes/webhooks.view";
import { BackLink, Fact } from "../logs/log-components";
import { EndpointForm, EventList } from "./endpoint-form";
import type { EndpointDraft } from "./webhook-forms";
import { EnabledBadge } from "./webhook-list.page";

/** Fixed confirmations after a redirect; the query only picks one, it is never shown itself. */
const DONE: Record<string, string> = {
  created: "Webhook added.",
  saved: "Webhook saved.",
  enabled: "Webhook enabled.",
  disabled: "Webhook disabled.",
  tested: "Test event sent; its delivery appears below.",
  resent: "Delivery queued again with the same event id; its attempt appears below.",
};

/**
 * The secret is fetched by a POST: htmx swaps the answer (the secret alone) in place of this form;
 * without script the browser opens a page showing it.
 */
function ShowSecret(props: { action: string; csrfToken: string }) {
  return (
    <form method="post" action={props.action} class="inline" hx-post={props.action} hx-swap="outerHTML">
      <CsrfField token={props.csrfToken} />
      <button type="submit" class="secondary">
        Show secret
      </button>
    </form>
  );
}

function Actions(props: { endpoint: EmailWebhook; csrfToken: string; draft: EndpointDraft | undefined }) {
  const { endpoint, csrfToken } = props;
  const base = `/dashboard/webhooks/${endpoint.id}`;
  return (
    <>
      <div class="actions">
        <ShowSecret action={`${base}/secret`} csrfToken={csrfToken} />
        <ActionButton action={`${base}/test`} label="Send test event" csrfToken={csrfToken} />
        <ActionButton
          action={`${base}/${endpoint.enabled ? "disable" : "enable"}`}
          label={endpoint.enabled ? "Disable" : "Enable"}
          csrfToken={csrfToken}
        />
        <ActionButton
          action={`${base}/delete`}
          label="Delete"
          csrfToken={csrfToken}
          confirm={`Delete the webhook to ${endpoint.url}, with its deliveries?`}
          danger
        />
      </div>
      <details open={props.draft !== undefined}>
        <summary>Edit</summary>
        <EndpointForm
          action={base}
          label="Edit the webhook"
          button="Save webhook"
          csrfToken={csrfToken}
          draft={props.draft ?? { url: endpoint.url, events: endpoint.events }}
        />
      </details>
    </>
  );
}

export function WebhookPage(props: {
  endpoint: EmailWebhook;
  canManage: boolean;
  csrfToken: string;
  done?: string | undefined;
  problem?: Problem | undefined;
  draft?: EndpointDraft | undefined;
  children: Child;
}) {
  const { endpoint } = props;
  return (
    <>
      <BackLink href="/dashboard/webhooks" text="All webhooks" />
      <PageHeader title="Webhook" />
      <Notice text={props.done ? DONE[props.done] : undefined} />
      <ProblemNotice problem={props.problem} />
      <section class="panel">
        <dl class="facts">
          <Fact term="URL">
            <code class="url">{endpoint.url}</code>
          </Fact>
          <Fact term="Id">
            <code>{endpoint.id}</code>
          </Fact>
          <Fact term="Events">
            <EventList events={endpoint.events} />
          </Fact>
          <Fact term="Enabled">
            <EnabledBadge endpoint={endpoint} />
          </Fact>
          <Fact term="Disabled because" empty={endpoint.disabled_reason === null}>
            {endpoint.disabled_reason}
          </Fact>
        </dl>
        {props.canManage ? (
          <Actions endpoint={endpoint} csrfToken={props.csrfToken} draft={props.draft} />
        ) : null}
      </section>
      {props.children}
    </>
  );
}

/** The page the secret opens on without script. */
export function SecretPage(props: { endpoint: EmailWebhook }) {
  const { endpoint } = props;
  return (
    <>
      <BackLink href={`/dashboard/webhooks/${endpoint.id}`} text={endpoint.url} />
      <PageHeader title="Webhook secret" />
      <section class="panel">
        <dl class="facts">
          <dt>Secret</dt>
          <dd>
            <SecretValue secret={endpoint.secret} />
          </dd>
        </dl>
        <p class="muted">
          Verify each delivery's X-Service-Signature: HMAC-SHA256 of "timestamp.body" keyed with the whole
          secret, as for inbox webhooks.
        </p>
      </section>
    </>
  );
}
