import type { toTicket } from "../../features/tickets/tickets.dto";
import { CsrfField } from "../../ui/components";
import { priorityOptions, statusOptions } from "./labels";
import { assigneeOptions, type Person } from "./lookups";

type Ticket = ReturnType<typeof toTicket>;

function Select(props: {
  label: string;
  name: string;
  value: string;
  options: Array<{ value: string; label: string }>;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === props.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Subject, status, priority, assignee and tags, saved together with one button. */
export function EditTicketForm(props: { ticket: Ticket; people: Person[]; csrfToken: string }) {
  const { ticket } = props;
  return (
    <form
      method="post"
      action={`/dashboard/tickets/${ticket.id}/edit`}
      class="stack"
      aria-label="Edit ticket"
    >
      <CsrfField token={props.csrfToken} />
      <label>
        Subject
        <input type="text" name="subject" value={ticket.subject} required maxlength={998} />
      </label>
      <div class="pair">
        <Select label="Status" name="status" value={ticket.status} options={statusOptions} />
        <Select label="Priority" name="priority" value={ticket.priority} options={priorityOptions} />
      </div>
      <Select
        label="Assignee"
        name="assignee_id"
        value={ticket.assignee_id ?? ""}
        options={assigneeOptions(props.people, ticket.assignee_id)}
      />
      <label>
        Tags
        <input type="text" name="tags" value={ticket.tags.join(", ")} placeholder="billing, vip" />
        <small>Separated by commas.</small>
      </label>
      <div>
        <button type="submit">Save</button>
      </div>
    </form>
  );
}

/**
 * One text box, two ways out: a reply emailed to the customer, or a note only the team sees. A
 * reply carries the ticket's version as the page showed it: when the ticket changed since, it is
 * not sent (reply-conflict.tsx).
 */
export function ComposeForm(props: {
  ticket: Ticket;
  version: number;
  csrfToken: string;
  /** A saved reply inserted: its rendered text fills the box, and its id goes with the message. */
  inserted?: { id: string; text: string } | undefined;
}) {
  const { ticket, inserted } = props;
  return (
    <form method="post" action={`/dashboard/tickets/${ticket.id}/reply`} class="compose" aria-label="Write">
      <CsrfField token={props.csrfToken} />
      <input type="hidden" name="version" value={String(props.version)} />
      <input type="hidden" name="loaded_at" value={String(Date.parse(ticket.updated_at))} />
      <label>
        Message
        <textarea
          name="body_text"
          rows={6}
          required
          // After Insert, the keyboard goes on from the inserted text (the preview is just above).
          autofocus={inserted !== undefined}
          placeholder={`Write to ${ticket.customer.name || ticket.customer.email}, or a note for your team`}
        >
          {inserted?.text ?? ""}
        </textarea>
      </label>
      {inserted ? <input type="hidden" name="saved_reply_id" value={inserted.id} /> : null}
      <div class="actions">
        <button type="submit">Send reply</button>
        <button type="submit" class="secondary" formaction={`/dashboard/tickets/${ticket.id}/note`}>
          Add note
        </button>
        <small class="muted">
          A reply is emailed to {ticket.customer.email}; a note stays inside the team.
        </small>
      </div>
    </form>
  );
}
