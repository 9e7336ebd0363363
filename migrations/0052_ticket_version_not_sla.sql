-- The SLA sweep's marks (a warning fired, a breach flagged, the next moment to look) are the
-- clock's bookkeeping, not an edit of the ticket: they no longer move its version (the ETag), so an
-- agent's reply with If-Match, the dashboard's among them, is not held back because a target's time
-- ran out while they wrote. A write that sets any other column moves it as before (its SLA columns
-- with it). test/workers/ticket-version-columns.test.ts checks that every other column is listed.
DROP TRIGGER tickets_version_bump;
--> statement-breakpoint
CREATE TRIGGER tickets_version_bump
AFTER UPDATE OF id, account_id, inbox_id, customer_id, number, client_id, subject, status, priority,
  shared_uuid, metadata, assignee_id, message_count, last_message_at, snoozed_until, closed_at,
  merged_into_id, created_at, updated_at
ON tickets WHEN NEW.version = OLD.version
BEGIN
  UPDATE tickets SET version = OLD.version + 1 WHERE id = NEW.id;
END;
