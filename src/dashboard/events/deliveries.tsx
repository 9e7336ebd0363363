import type { Delivery } from "../../features/event-stream/event-stream.dto";
import { Badge, Empty, Time } from "../../ui/components";
import { HttpStatus, milliseconds } from "../logs/log-components";

const TONES = {
  succeeded: "good",
  failed: "bad",
  pending: "warn",
  sending: "warn",
  unknown: "warn",
} as const;

/** How an event's deliveries went, in one line: "1 succeeded", "1 failed", or "no webhooks". */
export function DeliverySummary(props: { deliveries: Delivery[] }) {
  if (props.deliveries.length === 0) return <span class="muted">no webhooks</span>;
  const counts = new Map<Delivery["status"], number>();
  for (const d of props.deliveries) counts.set(d.status, (counts.get(d.status) ?? 0) + 1);
  return (
    <span class="badges">
      {[...counts].map(([status, n]) => (
        <Badge text={`${n} ${status}`} tone={TONES[status]} />
      ))}
    </span>
  );
}

export function DeliveryTable(props: { deliveries: Delivery[] }) {
  if (props.deliveries.length === 0) {
    return (
      <Empty text="No webhook of the inbox was enabled and subscribed to this event when it happened." />
    );
  }
  return (
    <table>
      <thead>
        <tr>
          <th>URL</th>
          <th>Status</th>
          <th>Status code</th>
          <th class="num">Duration</th>
          <th>Error</th>
          <th>Attempted</th>
        </tr>
      </thead>
      <tbody>
        {props.deliveries.map((d) => (
          <tr>
            <td class="url">
              <code>{d.url}</code>
            </td>
            <td>
              <Badge text={d.status} tone={TONES[d.status]} />
            </td>
            <td>
              <HttpStatus code={d.status_code} />
            </td>
            <td class="num nowrap">{milliseconds(d.duration_ms)}</td>
            <td>{d.error ?? <span class="muted">none</span>}</td>
            <td class="nowrap">
              <Time at={d.attempted_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
