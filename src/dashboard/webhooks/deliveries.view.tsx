import type { EmailWebhookAttempt } from "../../features/email-webhooks/email-webhooks.service";
import { ActionButton, Empty, Pager, Time } from "../../ui/components";
import { HttpStatus, milliseconds } from "../logs/log-components";

/**
 * The endpoint's delivery attempts, newest first, each with the exact body it sent (the stored
 * envelope, serialised as it was signed) and, for admins, a Resend button.
 */
export function DeliveriesPanel(props: {
  endpointId: string;
  attempts: EmailWebhookAttempt[];
  total: number;
  limit: number;
  offset: number;
  canManage: boolean;
  csrfToken: string;
}) {
  const base = `/dashboard/webhooks/${props.endpointId}`;
  return (
    <section class="panel" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Recent deliveries</h2>
      {props.attempts.length === 0 ? (
        <Empty text="No deliveries yet. Send a test event to see one here." />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Time</th>
              <th>Event</th>
              <th class="num">Attempt</th>
              <th>Status code</th>
              <th class="num">Duration</th>
              <th>Error</th>
              <th>Payload</th>
              {props.canManage ? <th>Resend</th> : null}
            </tr>
          </thead>
          <tbody>
            {props.attempts.map((attempt) => (
              <tr>
                <td class="nowrap">
                  <Time at={attempt.created_at} />
                </td>
                <td>
                  <code>{attempt.event}</code>
                  <br />
                  <code class="muted">{attempt.event_id}</code>
                </td>
                <td class="num">{attempt.attempt}</td>
                <td>
                  <HttpStatus code={attempt.status_code} />
                </td>
                <td class="num nowrap">{milliseconds(attempt.duration_ms)}</td>
                <td>{attempt.error ?? <span class="muted">none</span>}</td>
                <td>
                  <details>
                    <summary>Payload</summary>
                    <pre class="payload">{JSON.stringify(attempt.payload)}</pre>
                  </details>
                </td>
                {props.canManage ? (
                  <td>
                    <ActionButton
                      action={`${base}/deliveries/${attempt.event_id}/resend`}
                      label="Resend"
                      csrfToken={props.csrfToken}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        path={base}
        query={{ limit: props.limit }}
        limit={props.limit}
        offset={props.offset}
        total={props.total}
      />
    </section>
  );
}
