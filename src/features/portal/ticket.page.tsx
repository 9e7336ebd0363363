import { inWorkspace } from "../../lib/workspace-link";
import { Layout } from "../../ui/layout";
import { shownText } from "./html-to-text";
import { FieldError, Honeypot } from "./portal.components";
import type { PublicMessage, PublicTicket } from "./portal.repo";

/** What a customer reads for each status; `pending` means the team waits on them. */
const STATUS_WORDS: Record<PublicTicket["status"], string> = {
  open: "Open",
  pending: "Waiting on you",
  on_hold: "On hold",
  resolved: "Resolved",
  closed: "Closed",
  spam: "Closed",
};

/** UTC with minutes: the page runs no script (see its CSP), so it cannot localise times. */
const formatTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** One message; its id is the anchor a reply's redirect lands on. Stored HTML is shown as text. */
function Message(props: { message: PublicMessage; inboxName: string }) {
  const { message } = props;
  const isReply = message.type === "reply";
  return (
    <article class={isReply ? "portal-message reply" : "portal-message"} id={message.id}>
      <header>
        <strong>{isReply ? props.inboxName : "You"}</strong>
        <time datetime={new Date(message.createdAt).toISOString()}>{formatTime(message.createdAt)}</time>
      </header>
      <p class="body">{shownText(message)}</p>
    </article>
  );
}

/** The customer's reply: a `customer` message on the ticket, whatever its status. */
function ReplyForm(props: { action: string; message?: string | undefined; error?: string | undefined }) {
  return (
    <form method="post" action={props.action} class="stack portal-reply" id="reply">
      <h2>Reply</h2>
      <label>
        Your message
        <textarea name="message" required rows={6} aria-invalid={props.error ? "true" : undefined}>
          {props.message ?? ""}
        </textarea>
        <FieldError text={props.error} />
      </label>
      <Honeypot />
      <p>
        <button type="submit">Send reply</button>
      </p>
    </form>
  );
}

/** The customer's page. Hono JSX escapes every value, stored ones included. */
export function TicketPage(props: {
  ticket: PublicTicket;
  sharedUuid: string;
  /** The ticket's workspace, named in the form's action (workspace-link.ts). */
  accountId: string;
  reply?: { message: string; error: string } | undefined;
}) {
  const { ticket } = props;
  return (
    <Layout title={`${ticket.subject} · ${ticket.inboxName}`} wide>
      <p class="muted">{ticket.inboxName}</p>
      <h1 class="portal-subject">{ticket.subject}</h1>
      <p class="muted">
        Ticket {ticket.clientId} · <span class="portal-status">{STATUS_WORDS[ticket.status]}</span>
      </p>
      <section class="portal-thread" aria-label="Conversation">
        {ticket.messages.length > 0 ? (
          ticket.messages.map((message) => <Message message={message} inboxName={ticket.inboxName} />)
        ) : (
          <p class="muted">No messages yet.</p>
        )}
      </section>
      <ReplyForm
        action={inWorkspace(`/portal/tickets/${props.sharedUuid}/messages`, props.accountId)}
        message={props.reply?.message}
        error={props.reply?.error}
      />
    </Layout>
  );
}
