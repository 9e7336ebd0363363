import { PublicMessagePage } from "../../ui/message-page";
import { HONEYPOT_FIELD } from "./portal.schemas";

/**
 * The honeypot: moved off-screen by the stylesheet (`.portal-trap`), skipped by keyboards and
 * screen readers, and labelled for anyone who sees it anyway. People leave it empty; bots that fill
 * every field do not.
 */
export function Honeypot() {
  return (
    <div class="portal-trap" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabindex={-1} autocomplete="off" />
      </label>
    </div>
  );
}

/** A field's complaint, under the field, when the post was refused. */
export function FieldError(props: { text: string | undefined }) {
  return props.text ? <span class="portal-field-error">{props.text}</span> : null;
}

export const TicketNotFoundPage = () => (
  <PublicMessagePage
    title="Ticket not found"
    text="This link does not lead to a ticket. Check that you copied the whole address."
  />
);

export const InboxNotFoundPage = () => (
  <PublicMessagePage
    title="Form not found"
    text="This address does not lead to a contact form. Check that you copied the whole address."
  />
);
