import type { Webhook } from "../../features/inboxes/webhooks";
import { ActionButton, Badge, CsrfField, Empty } from "../../ui/components";
import { EVENT_NAMES } from "../../webhooks/outbox";
import type { WebhookDraft } from "./inbox-forms";

/**
 * One checkbox per subscribable event (the inbox events unless `names` says otherwise); the form
 * posts an `events` field for each ticked one.
 */
export function EventChoices(props: { selected: readonly string[]; names?: readonly string[] }) {
  return (
    <fieldset class="events">
      <legend>Events</legend>
      {(props.names ?? EVENT_NAMES).map((name) => (
        <label class="check">
          <input type="checkbox" name="events" value={name} checked={props.selected.includes(name)} />
          {name}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The secret is fetched by a POST: htmx swaps the answer (the secret alone) in place of this form;
 * without script the browser opens a page showing it.
 */
function ShowSecret(props: { action: string; url: string; csrfToken: string }) {
  return (
    <form method="post" action={props.action} class="inline" hx-post={props.action} hx-swap="outerHTML">
      <CsrfField token={props.csrfToken} />
      <input type="hidden" name="current_url" value={props.url} />
      <button type="submit" class="secondary">
        Show secret
      </button>
    </form>
  );
}

/** The secret, as htmx swaps it in. */
export function SecretValue(props: { secret: string }) {
  return <code class="secret">{props.secret}</code>;
}

function WebhookCard(props: {
  base: string;
  index: number;
  webhook: Webhook;
  canManage: boolean;
  csrfToken: string;
}) {
  const { webhook, csrfToken } = props;
  const action = `${props.base}/${props.index}`;
  const which = { current_url: webhook.url };
  return (
    <article class="webhook" aria-label={`Webhook ${webhook.url}`}>
      <div class="webhook-head">
        <code class="url">{webhook.url}</code>
        {webhook.enabled ? <Badge text="Enabled" tone="good" /> : <Badge text="Disabled" />}
      </div>
      <ul class="event-list" aria-label="Events">
        {webhook.events.map((name) => (
          <li>
            <code>{name}</code>
          </li>
        ))}
      </ul>
      {props.canManage ? (
        <>
          <div class="actions">
            <ShowSecret action={`${action}/secret`} url={webhook.url} csrfToken={csrfToken} />
            <ActionButton
              action={`${action}/${webhook.enabled ? "disable" : "enable"}`}
              label={webhook.enabled ? "Disable" : "Enable"}
              csrfToken={csrfToken}
              fields={which}
            />
            <ActionButton
              action={`${action}/delete`}
              label="Delete"
              csrfToken={csrfToken}
              fields={which}
              confirm={`Delete the webhook to ${webhook.url}?`}
              danger
            />
          </div>
          <details>
            <summary>Edit</summary>
            <form method="post" action={action} class="stack">
              <CsrfField token={csrfToken} />
              <input type="hidden" name="current_url" value={webhook.url} />
              <label>
                URL
                <input name="url" type="url" required value={webhook.url} />
              </label>
              <EventChoices selected={webhook.events} />
              <div class="actions">
                <button type="submit">Save webhook</button>
              </div>
            </form>
          </details>
        </>
      ) : null}
    </article>
  );
}

export function WebhooksPanel(props: {
  inboxId: string;
  webhooks: Webhook[];
  canManage: boolean;
  csrfToken: string;
  draft?: WebhookDraft | undefined;
}) {
  const base = `/dashboard/inboxes/${props.inboxId}/webhooks`;
  return (
    <section class="panel" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p class="muted">
        Each event of this inbox is sent as one signed POST to the enabled webhooks subscribed to it.
      </p>
      {props.webhooks.length === 0 ? (
        <Empty text="No webhooks." />
      ) : (
        <div class="webhooks">
          {props.webhooks.map((webhook, index) => (
            <WebhookCard
              base={base}
              index={index}
              webhook={webhook}
              canManage={props.canManage}
              csrfToken={props.csrfToken}
            />
          ))}
        </div>
      )}
      {props.canManage ? (
        <form method="post" action={base} class="stack add-webhook" aria-label="Add a webhook">
          <h3>Add a webhook</h3>
          <CsrfField token={props.csrfToken} />
          <label>
            URL
            <input
              name="url"
              type="url"
              required
              placeholder="https://hooks.example.com/support"
              value={props.draft?.url ?? ""}
            />
          </label>
          <EventChoices selected={props.draft?.events ?? []} />
          <div class="actions">
            <button type="submit">Add webhook</button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
