import type { Event } from "../../features/event-stream/event-stream.dto";
import { Empty, FilterSelect, PageHeader, Pager, Time } from "../../ui/components";
import { EVENT_NAMES } from "../../webhooks/outbox";
import { BackLink, Fact, FilterForm } from "../logs/log-components";
import { DeliverySummary, DeliveryTable } from "./deliveries";

export interface EventFilters {
  event?: string | undefined;
  inbox_id?: string | undefined;
  limit: number;
  offset: number;
}

const LIST = "/dashboard/events";

/** The inbox's name as the event recorded it (events outlive their inbox). */
const inboxNameOf = (event: Event) => {
  const inbox = event.data.inbox as { name?: unknown } | undefined;
  return typeof inbox?.name === "string" ? inbox.name : null;
};

export function EventsPage(props: {
  events: Event[];
  total: number;
  filters: EventFilters;
  inboxes: Array<{ value: string; label: string }>;
}) {
  const { filters } = props;
  const active = Boolean(filters.event || filters.inbox_id);
  // An inbox chosen by link (a deleted one, or one past the choices) stays visibly selected.
  const inboxes =
    filters.inbox_id && !props.inboxes.some((inbox) => inbox.value === filters.inbox_id)
      ? [...props.inboxes, { value: filters.inbox_id, label: filters.inbox_id }]
      : props.inboxes;
  return (
    <>
      <PageHeader title="Events" />
      <p class="muted">
        Every webhook event of this workspace, newest first, with how its deliveries went. Open one to see its
        payload and each delivery.
      </p>
      <FilterForm action={LIST} active={active}>
        <FilterSelect label="Event" name="event" value={filters.event} options={EVENT_NAMES} />
        <FilterSelect label="Inbox" name="inbox_id" value={filters.inbox_id} options={inboxes} />
      </FilterForm>
      <section class="panel">
        {props.events.length === 0 ? (
          <Empty text={active ? "No event matches these filters." : "Nothing has happened yet."} />
        ) : (
          <EventTable events={props.events} />
        )}
      </section>
      <Pager
        path={LIST}
        query={{
          event: filters.event,
          inbox_id: filters.inbox_id,
          limit: filters.limit === 50 ? undefined : filters.limit,
        }}
        limit={filters.limit}
        offset={filters.offset}
        total={props.total}
      />
    </>
  );
}

function EventTable(props: { events: Event[] }) {
  return (
    <table class="logs">
      <thead>
        <tr>
          <th>Time</th>
          <th>Event</th>
          <th>Inbox</th>
          <th>Deliveries</th>
        </tr>
      </thead>
      <tbody>
        {props.events.map((event) => (
          <tr>
            <td class="nowrap">
              <Time at={event.created_at} />
            </td>
            <td>
              <a href={`${LIST}/${encodeURIComponent(event.id)}`}>
                <code>{event.event}</code>
              </a>
            </td>
            <td>{inboxNameOf(event) ?? <code>{event.inbox_id}</code>}</td>
            <td>
              <DeliverySummary deliveries={event.deliveries} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function EventPage(props: { event: Event }) {
  const { event } = props;
  // What the webhooks received: the envelope of the spec, with the id product.md adds.
  const envelope = { id: event.id, event: event.event, timestamp: event.created_at, data: event.data };
  return (
    <>
      <BackLink href={LIST} text="All events" />
      <PageHeader title={`Event ${event.event}`} />
      <section class="panel">
        <dl class="facts">
          <Fact term="Id">
            <code>{event.id}</code>
          </Fact>
          <Fact term="Event">
            <code>{event.event}</code>
          </Fact>
          <Fact term="Inbox">
            {inboxNameOf(event)} <code class="muted">{event.inbox_id}</code> ·{" "}
            <a href={`${LIST}?inbox_id=${encodeURIComponent(event.inbox_id)}`}>events of this inbox</a>
          </Fact>
          <Fact term="Happened">
            <Time at={event.created_at} />
          </Fact>
          <Fact term="Handed to webhooks" empty={event.dispatched_at === null}>
            <Time at={event.dispatched_at} />
          </Fact>
        </dl>
      </section>
      <section class="panel">
        <h2>Deliveries</h2>
        <DeliveryTable deliveries={event.deliveries} />
      </section>
      <section class="panel">
        <h2>Payload</h2>
        <pre class="payload">{JSON.stringify(envelope, null, 2)}</pre>
      </section>
    </>
  );
}
