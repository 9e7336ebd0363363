import type { InboxRow } from "../../features/inboxes/inboxes.repo";
import type { toTicket } from "../../features/tickets/tickets.dto";
import type { standardList } from "../../lib/pagination";
import { ActionButton, Notice, PageHeader, Pager, Time } from "../../ui/components";
import { PriorityBadge, StatusBadge } from "./labels";
import { type Person, personName } from "./lookups";
import { type Conflict, ReplyConflict } from "./reply-conflict";
import { type SavedReplyChoice, SavedReplyPicker } from "./saved-reply-picker";
import { SlaTargets } from "./sla-time";
import { type HtmlTexts, type Message, Thread } from "./thread";
import { ComposeForm, EditTicketForm } from "./ticket-forms";

type Ticket = ReturnType<typeof toTicket>;
type Messages = ReturnType<typeof standardList<Message>>;

function Facts(props: { ticket: Ticket; inbox: InboxRow; people: Person[] }) {
  const { ticket } = props;
  const assignee = ticket.assignee_id ? props.people.find((p) => p.id === ticket.assignee_id) : undefined;
  const byCustomer = `/dashboard/tickets?${new URLSearchParams({ customer_id: ticket.customer_id })}`;
  return (
    <dl class="facts">
      <dt>Status</dt>
      <dd>
        <StatusBadge status={ticket.status} />
      </dd>
      <dt>Priority</dt>
      <dd>
        <PriorityBadge priority={ticket.priority} />
      </dd>
      <dt>Inbox</dt>
      <dd>
        {props.inbox.name} <small class="muted block">{props.inbox.emailAddress}</small>
      </dd>
      <dt>Customer</dt>
      <dd>
        <a href={byCustomer}>{ticket.customer.name || ticket.customer.email}</a>
        {ticket.customer.name ? <small class="muted block">{ticket.customer.email}</small> : null}
      </dd>
      <dt>Assignee</dt>
      <dd>{ticket.assignee_id ? personName(assignee) : <span class="muted">Unassigned</span>}</dd>
      <dt>SLA</dt>
      <dd>
        <SlaTargets sla={ticket.sla} />
      </dd>
      <dt>Tags</dt>
      <dd>
        {ticket.tags.length > 0 ? (
          <span class="tags">
            {ticket.tags.map((tag) => (
              <span class="tag">{tag}</span>
            ))}
          </span>
        ) : (
          <span class="muted">None</span>
        )}
      </dd>
      <dt>Created</dt>
      <dd>
        <Time at={ticket.created_at} />
      </dd>
      <dt>Updated</dt>
      <dd>
        <Time at={ticket.updated_at} />
      </dd>
    </dl>
  );
}

export function TicketPage(props: {
  ticket: Ticket;
  /** The ticket's version (its ETag) as this page shows it: what a reply from here expects. */
  version: number;
  inbox: InboxRow;
  messages: Messages;
  /** The stored text of the HTML-only messages on this page. */
  htmlTexts: HtmlTexts;
  people: Person[];
  csrfToken: string;
  notice: string | undefined;
  savedReplies: SavedReplyChoice;
  conflict?: Conflict | undefined;
}) {
  const { ticket, messages } = props;
  const { limit, offset, total } = messages.pagination;
  return (
    <>
      <p class="crumbs">
        <a href="/dashboard/tickets">Tickets</a> / <span>{ticket.client_id}</span>
      </p>
      <PageHeader title={ticket.subject}>
        <ActionButton
          action={`/dashboard/tickets/${ticket.id}/delete`}
          label="Delete"
          csrfToken={props.csrfToken}
          confirm={`Delete ${ticket.client_id} with all its messages? This cannot be undone.`}
          danger
        />
      </PageHeader>
      <Notice text={props.notice} />
      <p
        class="presence"
        data-presence={`/dashboard/tickets/${ticket.id}/presence`}
        aria-live="polite"
        hidden
      />
      <div class="ticket-layout">
        <div class="conversation">
          <section class="panel">
            <h2>
              Messages <span class="muted">({total})</span>
            </h2>
            <Thread
              messages={messages.data}
              ticket={ticket}
              people={props.people}
              htmlTexts={props.htmlTexts}
            />
            {total > limit ? (
              <Pager
                path={`/dashboard/tickets/${ticket.id}`}
                query={{ limit: limit === 50 ? undefined : limit }}
                limit={limit}
                offset={offset}
                total={total}
              />
            ) : null}
          </section>
          <section class="panel">
            {props.conflict ? (
              <ReplyConflict
                conflict={props.conflict}
                ticket={ticket}
                people={props.people}
                htmlTexts={props.htmlTexts}
              />
            ) : null}
            <SavedReplyPicker ticketId={ticket.id} choice={props.savedReplies} />
            <ComposeForm
              ticket={ticket}
              version={props.version}
              csrfToken={props.csrfToken}
              inserted={
                props.conflict
                  ? { id: props.conflict.savedReplyId ?? "", text: props.conflict.text }
                  : props.savedReplies.chosen
              }
            />
          </section>
        </div>
        <aside class="ticket-side">
          <section class="panel">
            <h2>Details</h2>
            <Facts ticket={ticket} inbox={props.inbox} people={props.people} />
          </section>
          <section class="panel">
            <h2>Edit</h2>
            <EditTicketForm ticket={ticket} people={props.people} csrfToken={props.csrfToken} />
          </section>
        </aside>
      </div>
    </>
  );
}
