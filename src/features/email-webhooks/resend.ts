import { sql } from "drizzle-orm";
import type { Statement } from "../../db/client";

/**
 * The statements that resend one delivered (or given-up) event to its endpoint, for one batch: the
 * endpoint as it is now (to tell "no such endpoint" from "disabled"), then a new outbox row copying
 * the event's id and exact body, so the receiver can recognise it by `X-Webhook-Id`. The copy is
 * only made while the endpoint is enabled: the normal path closes a disabled endpoint's events
 * unsent, so queuing one there would only record a failure.
 */
export function resendStatements(
  accountId: string,
  endpointId: string,
  eventId: string,
  now: number,
): Statement[] {
  return [
    sql`SELECT enabled FROM webhook_endpoints WHERE account_id = ${accountId} AND id = ${endpointId}`,
    sql`INSERT INTO email_webhook_outbox
          (account_id, endpoint_id, event_id, event, body, state, attempts, next_attempt_at, created_at)
        SELECT o.account_id, o.endpoint_id, o.event_id, o.event, o.body, 'pending', 0, ${now}, ${now}
        FROM email_webhook_outbox o
        JOIN webhook_endpoints e ON e.id = o.endpoint_id AND e.account_id = o.account_id
        WHERE o.event_id = ${eventId} AND o.endpoint_id = ${endpointId} AND o.account_id = ${accountId}
          AND e.enabled = 1
        ORDER BY o.id DESC LIMIT 1
        RETURNING event`,
  ];
}
