import { CsrfField, PageHeader } from "../../ui/components";
import { priorityOptions } from "./labels";
import type { Inbox } from "./lookups";

export type Problem = { path: string; message: string };

/** The API's field paths (POST /v1/tickets) as this form's labels. */
const FIELD_LABELS: Record<string, string> = {
  inbox_id: "Inbox",
  "customer.email": "Customer email",
  "customer.name": "Customer name",
  subject: "Subject",
  "message.body_text": "First message",
  message: "First message",
  priority: "Priority",
};

type Values = Partial<
  Record<"inbox_id" | "customer_email" | "customer_name" | "subject" | "body_text" | "priority", string>
>;

function Problems(props: { problems: Problem[] }) {
  if (props.problems.length === 0) return null;
  return (
    <div class="notice error" role="alert">
      <p>The ticket was not created:</p>
      <ul>
        {props.problems.map((p) => (
          <li>
            {p.path ? <strong>{FIELD_LABELS[p.path] ?? p.path}: </strong> : null}
            {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function NewTicketPage(props: {
  inboxes: Inbox[];
  values: Values;
  problems: Problem[];
  csrfToken: string;
}) {
  const { values } = props;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/tickets">Tickets</a>
      </p>
      <PageHeader title="New ticket" />
      <Problems problems={props.problems} />
      {props.inboxes.length === 0 ? (
        <section class="panel">
          <p>
            A ticket belongs to an inbox, and this workspace has none yet.{" "}
            <a href="/dashboard/inboxes">Add an inbox</a> first.
          </p>
        </section>
      ) : (
        <section class="panel form-panel">
          <p class="muted">
            For a conversation that started elsewhere (a call, a chat): the ticket is opened on the customer's
            behalf, and the first message, if any, is theirs. Nothing is emailed.
          </p>
          <form method="post" action="/dashboard/tickets" class="stack">
            <CsrfField token={props.csrfToken} />
            <label>
              Inbox
              <select name="inbox_id" required>
                {props.inboxes.map((inbox) => (
                  <option value={inbox.id} selected={inbox.id === values.inbox_id}>
                    {`${inbox.name} <${inbox.emailAddress}>`}
                  </option>
                ))}
              </select>
            </label>
            <div class="pair">
              <label>
                Customer email
                <input
                  type="email"
                  name="customer_email"
                  value={values.customer_email}
                  required
                  autocomplete="off"
                />
              </label>
              <label>
                Customer name
                <input type="text" name="customer_name" value={values.customer_name} autocomplete="off" />
              </label>
            </div>
            <label>
              Subject
              <input type="text" name="subject" value={values.subject} required maxlength={998} />
            </label>
            <label>
              First message
              <textarea name="body_text" rows={6}>
                {values.body_text ?? ""}
              </textarea>
            </label>
            <label class="short">
              Priority
              <select name="priority">
                {priorityOptions.map((o) => (
                  <option value={o.value} selected={o.value === (values.priority ?? "normal")}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <div class="actions">
              <button type="submit">Create ticket</button>
              <a href="/dashboard/tickets">Cancel</a>
            </div>
          </form>
        </section>
      )}
    </>
  );
}
