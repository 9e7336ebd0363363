import { CsrfField } from "../../ui/components";
import { EMAIL_EVENT_NAMES } from "../../webhooks/email-events";
import { EventChoices } from "../inboxes/webhooks.view";
import type { EndpointDraft } from "./webhook-forms";

/** The URL and events of an endpoint: the add form on the list, the edit form on its page. */
export function EndpointForm(props: {
  action: string;
  label: string;
  button: string;
  csrfToken: string;
  draft: EndpointDraft | undefined;
}) {
  return (
    <form method="post" action={props.action} class="stack add-webhook" aria-label={props.label}>
      <CsrfField token={props.csrfToken} />
      <label>
        URL
        <input
          name="url"
          type="url"
          required
          placeholder="https://example.com/hooks/email"
          value={props.draft?.url ?? ""}
        />
      </label>
      <EventChoices selected={props.draft?.events ?? []} names={EMAIL_EVENT_NAMES} />
      <div class="actions">
        <button type="submit">{props.button}</button>
      </div>
    </form>
  );
}

/** Subscribed events, each as code. */
export function EventList(props: { events: readonly string[] }) {
  return (
    <ul class="event-list" aria-label="Events">
      {props.events.map((name) => (
        <li>
          <code>{name}</code>
        </li>
      ))}
    </ul>
  );
}
