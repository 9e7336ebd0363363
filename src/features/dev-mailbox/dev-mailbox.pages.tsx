import { Layout } from "../../ui/layout";
import type { MailboxMessage } from "./dev-mailbox.repo";

/**
 * Newest first, one entry per envelope (each recipient's copy with its Return-Path), its raw MIME
 * below (escaped, never rendered as HTML). An email's copies share its id, so each anchor adds its place.
 */
export function MailboxPage(props: { messages: MailboxMessage[] }) {
  const anchor = (m: MailboxMessage, index: number) => `${m.id}-${index}`;
  return (
    <Layout title="Development mailbox">
      <h1>Development mailbox</h1>
      <p>
        Every message the capture transport kept, system mail included, newest first: one entry per recipient,
        as its server would store it.
      </p>
      <p>
        JSON at <a href="/_dev/mailbox.json">/_dev/mailbox.json</a>.
      </p>
      {props.messages.length === 0 ? <p>No mail yet.</p> : null}
      <ul>
        {props.messages.map((m, i) => (
          <li>
            <a href={`#${anchor(m, i)}`}>{m.subject}</a> to {m.recipient} ({m.created_at})
          </li>
        ))}
      </ul>
      {props.messages.map((m, i) => (
        <section id={anchor(m, i)}>
          <h2>{m.subject}</h2>
          <p>
            From {m.from} to {m.to.join(", ")} at {m.created_at} ({m.id})
          </p>
          <p>
            Envelope: MAIL FROM &lt;{m.return_path}&gt;, RCPT TO &lt;{m.recipient}&gt;
          </p>
          <pre>{m.raw}</pre>
        </section>
      ))}
    </Layout>
  );
}
