import { getEvent, listEvents } from "../../features/event-stream/event-stream.service";
import { createRouter } from "../../lib/router";
import { inboxChoices } from "../inbox-choices";
import { renderPage } from "../page";
import { EventPage, EventsPage } from "./events.page";
import { eventPageRoute, eventsPageRoute } from "./events.routes";

/** /dashboard/events: read by everyone signed in, agents too. */
export const eventsPagesRouter = createRouter()
  .openapi(eventsPageRoute, async (c) => {
    const { db, accountId } = c.var.ctx;
    const filters = c.req.valid("query");
    const [{ events, total }, inboxes] = await Promise.all([
      listEvents(
        db,
        { accountId, event: filters.event, inboxId: filters.inbox_id },
        filters.limit,
        filters.offset,
      ),
      inboxChoices(db, accountId),
    ]);
    const inboxOptions = inboxes.map((inbox) => ({
      value: inbox.id,
      label: `${inbox.name} (${inbox.emailAddress})`,
    }));
    return renderPage(
      c,
      { title: "Events", nav: "Events" },
      <EventsPage events={events} total={total} filters={filters} inboxes={inboxOptions} />,
    );
  })
  .openapi(eventPageRoute, async (c) => {
    const event = await getEvent(c.var.ctx.db, c.var.ctx.accountId, c.req.valid("param").id);
    return renderPage(c, { title: `Event ${event.event}`, nav: "Events" }, <EventPage event={event} />);
  });
