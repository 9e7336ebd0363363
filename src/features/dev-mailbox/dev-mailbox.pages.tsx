import { Layout } from "../../dashboard/layout";
import type { MailboxMessage } from "./dev-mailbox.repo";

/** Newest first, each message's headers and its raw MIME below (escaped, never rendered as HTML). */
export function MailboxPage(props: { messages: MailboxMessage[] }) {
  return (
    <Layout title="Development mailbox">
      <h1>Development mailbox</h1>
      <p>
        Every message the capture transport kept, system mail included, newest first. JSON at{" "}
        <a href="/_dev/mailbox.json">/_dev/mailbox.json</a>.
      </p>
      {props.messages.length === 0 ? <p>No mail yet.</p> : null}
      <ul>
        {props.messages.map((m) => (
          <li>
            <a href={`#${m.id}`}>{m.subject}</a> to {m.to.join(", ")} ({m.created_at})
          </li>
        ))}
      </ul>
      {props.messages.map((m) => (
        <section id={m.id}>
          <h2>{m.subject}</h2>
          <p>
            From {m.from} to {m.to.join(", ")} at {m.created_at} ({m.id})
          </p>
          <pre>{m.raw}</pre>
        </section>
      ))}
    </Layout>
  );
}
