import type { toMessage } from "../../features/messages/messages.dto";
import { shownText } from "../../features/portal/html-to-text";
import type { toTicket } from "../../features/tickets/tickets.dto";
import { Badge, Empty, Time } from "../../ui/components";
import { type Person, personName } from "./lookups";

export type Message = ReturnType<typeof toMessage>;
type Ticket = ReturnType<typeof toTicket>;

/** The text of HTML bodies (`html_text`, made when each message was written), by message id. */
export type HtmlTexts = Map<string, string | null>;

/**
 * A message's words as text. Stored HTML comes from customers' mail clients: it is never rendered
 * as HTML here, only shown as the text stored with it, which JSX then escapes like every other value.
 */
const textOf = (message: Message, htmlTexts: HtmlTexts) =>
  shownText({
    bodyText: message.body_text,
    bodyHtml: message.body_html,
    htmlText: htmlTexts.get(message.id) ?? null,
  });

function authorOf(message: Message, ticket: Ticket, people: Map<string, Person>) {
  switch (message.author.type) {
    case "customer":
      return ticket.customer.name || ticket.customer.email;
    case "user":
      return personName(message.author.id ? people.get(message.author.id) : undefined);
    default:
      return "API";
  }
}

function MessageBadges(props: { message: Message }) {
  const { message } = props;
  return (
    <span class="message-badges">
      {message.type === "note" ? <Badge text="Internal note" tone="warn" /> : null}
      {message.is_draft ? <Badge text="Draft" tone="bad" /> : null}
      {message.type === "reply" && !message.is_draft && message.status !== "sent" ? (
        <Badge
          text={message.status === "failed" ? "Not delivered" : "Sending"}
          tone={message.status === "failed" ? "bad" : "neutral"}
        />
      ) : null}
    </span>
  );
}

function MessageItem(props: {
  message: Message;
  ticket: Ticket;
  people: Map<string, Person>;
  htmlTexts: HtmlTexts;
  anchored: boolean;
}) {
  const { message } = props;
  const text = textOf(message, props.htmlTexts);
  const classes = ["message", `message-${message.type}`, message.is_draft ? "message-draft" : ""];
  return (
    <article class={classes.join(" ").trim()} id={props.anchored ? `message-${message.id}` : undefined}>
      <header>
        <strong>{authorOf(message, props.ticket, props.people)}</strong>
        <MessageBadges message={message} />
        <Time at={message.created_at} />
      </header>
      {text ? <div class="message-body">{text}</div> : <p class="muted">(no text)</p>}
      {message.attachments.length > 0 ? (
        <ul class="attachments" aria-label="Attachments">
          {message.attachments.map((a) => (
            <li>
              {a.filename} <span class="muted">({Math.max(1, Math.round(a.size / 1024))} KB)</span>
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}

export function Thread(props: {
  messages: Message[];
  ticket: Ticket;
  people: Person[];
  htmlTexts: HtmlTexts;
  /** `false`: a second showing of messages the page lists anyway (a refused reply's news). */
  anchored?: boolean;
}) {
  const people = new Map(props.people.map((p) => [p.id, p]));
  if (props.messages.length === 0) return <Empty text="No messages yet." />;
  return (
    <div class="thread">
      {props.messages.map((message) => (
        <MessageItem
          message={message}
          ticket={props.ticket}
          people={people}
          htmlTexts={props.htmlTexts}
          anchored={props.anchored ?? true}
        />
      ))}
    </div>
  );
}
