import type { toTicket } from "../../features/tickets/tickets.dto";
import type { Person } from "./lookups";
import { type HtmlTexts, type Message, Thread } from "./thread";

type Ticket = ReturnType<typeof toTicket>;

/** A reply the ticket's change stopped: its text, kept unsent, and what changed meanwhile. */
export interface Conflict {
  text: string;
  savedReplyId: string | undefined;
  /** The ticket's `updated_at` (ms) on the page the reply was written on. */
  loadedAt: number;
  /** The messages added since then. */
  news: Message[];
}

/**
 * Shown above the message box when a reply was not sent because the ticket changed after its
 * page was loaded: the new messages (or, when none, that something else changed), and that the
 * reply goes out only when sent again, from this page, over what it now shows.
 */
export function ReplyConflict(props: {
  conflict: Conflict;
  ticket: Ticket;
  people: Person[];
  htmlTexts: HtmlTexts;
}) {
  const { news } = props.conflict;
  return (
    <div class="conflict" role="alert" aria-label="Ticket changed">
      <p>
        <strong>Your reply was not sent:</strong>{" "}
        {news.length > 0
          ? `${news.length === 1 ? "a new message" : `${news.length} new messages`} arrived while you were writing.`
          : "the ticket changed while you were writing (see its details)."}{" "}
        Read what changed, adjust your reply if needed, and press Send reply again to send it.
      </p>
      {news.length > 0 ? (
        <Thread
          messages={news}
          ticket={props.ticket}
          people={props.people}
          htmlTexts={props.htmlTexts}
          anchored={false}
        />
      ) : null}
    </div>
  );
}
