import type { z } from "@hono/zod-openapi";
import type { listTickets } from "../../features/tickets/tickets.service";
import type { listViews } from "../../features/views/views.service";
import { Empty, FilterSelect, Notice, PageHeader, Pager, Time } from "../../ui/components";
import { PriorityBadge, priorityOptions, StatusBadge, statusOptions } from "./labels";
import { type Inbox, type Person, personName } from "./lookups";
import { SlaTimeLeft } from "./sla-time";
import type { TicketsQuerySchema } from "./tickets.routes";
import { ViewForms, type ViewFormsProps } from "./view-forms";
import { filtersKey, ViewsSidebar } from "./views-sidebar";

type List = Awaited<ReturnType<typeof listTickets>>;
type Ticket = List["data"][number];
type Query = z.infer<typeof TicketsQuerySchema>;

const PATH = "/dashboard/tickets";

function Filters(props: { query: Query; inboxes: Inbox[]; people: Person[]; customer: string | undefined }) {
  const { query } = props;
  return (
    <form
      method="get"
      action={PATH}
      class="filters panel"
      aria-label="Filter tickets"
      hx-get={PATH}
      hx-target="#ticket-results"
      hx-select="#ticket-results"
      hx-swap="outerHTML"
      hx-push-url="true"
      hx-trigger="submit, change"
    >
      <FilterSelect label="Status" name="status" value={query.status} options={statusOptions} />
      <FilterSelect label="Priority" name="priority" value={query.priority} options={priorityOptions} />
      <FilterSelect
        label="Inbox"
        name="inbox_id"
        value={query.inbox_id}
        options={props.inboxes.map((i) => ({ value: i.id, label: i.name }))}
      />
      <FilterSelect
        label="Assignee"
        name="assignee_id"
        value={query.assignee_id}
        options={[
          { value: "none", label: "Unassigned" },
          { value: "me", label: "Me" },
          ...props.people.map((p) => ({ value: p.id, label: personName(p) })),
        ]}
      />
      <label>
        Tag
        <input type="text" name="tag" value={query.tag} size={12} />
      </label>
      <label>
        Search
        <input type="search" name="q" value={query.q} placeholder="Subject, messages, customer, tags" />
      </label>
      {query.customer_id ? (
        <label class="check">
          <input type="checkbox" name="customer_id" value={query.customer_id} checked />
          {`Customer: ${props.customer ?? query.customer_id}`}
        </label>
      ) : null}
      {query.view ? <input type="hidden" name="view" value={query.view} /> : null}
      <div class="actions">
        <button type="submit">Filter</button>
        <a href={PATH}>Clear</a>
      </div>
    </form>
  );
}

function Row(props: { ticket: Ticket; people: Map<string, Person> }) {
  const { ticket } = props;
  const href = `${PATH}/${ticket.id}`;
  const assignee = ticket.assignee_id ? props.people.get(ticket.assignee_id) : undefined;
  const byCustomer = new URLSearchParams({ customer_id: ticket.customer_id }).toString();
  // Only a search's results have `match` (tickets.service.ts listTickets).
  const match = "match" in ticket && typeof ticket.match === "string" ? ticket.match : null;
  return (
    <tr>
      <td class="ticket-id">
        <a href={href}>{ticket.client_id}</a>
      </td>
      <td class="subject">
        <a href={href}>{ticket.subject}</a>
        {ticket.tags.length > 0 ? (
          <span class="tags">
            {ticket.tags.map((tag) => (
              <span class="tag">{tag}</span>
            ))}
          </span>
        ) : null}
        {match ? (
          // An excerpt the service HTML-escaped, with only its <mark> tags added (search-excerpt.ts).
          <small class="match block" dangerouslySetInnerHTML={{ __html: match }} />
        ) : null}
      </td>
      <td>
        <a class="quiet" href={`${PATH}?${byCustomer}`} title={`Tickets of ${ticket.customer.email}`}>
          {ticket.customer.name || ticket.customer.email}
        </a>
        {ticket.customer.name ? <small class="muted block">{ticket.customer.email}</small> : null}
      </td>
      <td>
        <StatusBadge status={ticket.status} />
      </td>
      <td>
        <PriorityBadge priority={ticket.priority} />
      </td>
      <td>{ticket.assignee_id ? personName(assignee) : <span class="muted">Unassigned</span>}</td>
      <td class="sla">
        <SlaTimeLeft sla={ticket.sla} />
      </td>
      <td class="when">
        <Time at={ticket.updated_at} />
      </td>
    </tr>
  );
}

export function TicketsListPage(props: {
  list: List;
  query: Query;
  choices: { inboxes: Inbox[]; people: Person[] };
  /** The email of the customer filtered on, if any. */
  customer: string | undefined;
  views: Awaited<ReturnType<typeof listViews>>["data"];
  notice: string | undefined;
  viewForms: ViewFormsProps;
}) {
  const { list, query } = props;
  const people = new Map(props.choices.people.map((p) => [p.id, p]));
  const { done: _done, limit, offset, view, ...filters } = query;
  return (
    <>
      <PageHeader title="Tickets">
        <a class="button" href={`${PATH}/new`}>
          New ticket
        </a>
      </PageHeader>
      <Notice text={props.notice} />
      <div class="with-sidebar">
        <ViewsSidebar views={props.views} current={filtersKey(filters)} open={view} />
        <div>
          <Filters
            query={query}
            inboxes={props.choices.inboxes}
            people={props.choices.people}
            customer={props.customer}
          />
          <section id="ticket-results" class="panel" aria-live="polite">
            <ViewForms {...props.viewForms} filters={filters} />
            {list.data.length === 0 ? (
              <Empty text="No tickets match these filters." />
            ) : (
              <table class="tickets">
                <thead>
                  <tr>
                    <th>Ticket</th>
                    <th>Subject</th>
                    <th>Customer</th>
                    <th>Status</th>
                    <th>Priority</th>
                    <th>Assignee</th>
                    <th>SLA</th>
                    <th>Updated</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((ticket) => (
                    <Row ticket={ticket} people={people} />
                  ))}
                </tbody>
              </table>
            )}
            <Pager
              path={PATH}
              query={{ ...filters, view, limit: limit === 50 ? undefined : limit }}
              limit={limit}
              offset={offset}
              total={list.pagination.total}
            />
          </section>
        </div>
      </div>
    </>
  );
}
