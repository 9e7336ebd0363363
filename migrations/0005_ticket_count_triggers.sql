-- Keeps ticket_counts in step with tickets, whatever writes them: inserts, deletes and the
-- cascades of an inbox or account deletion all go through these triggers.
INSERT INTO ticket_counts (account_id, total)
SELECT account_id, count(*) FROM tickets GROUP BY account_id
ON CONFLICT(account_id) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
CREATE TRIGGER tickets_count_insert AFTER INSERT ON tickets
BEGIN
  INSERT INTO ticket_counts (account_id, total) VALUES (NEW.account_id, 1)
  ON CONFLICT(account_id) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_count_delete AFTER DELETE ON tickets
BEGIN
  UPDATE ticket_counts SET total = max(total - 1, 0) WHERE account_id = OLD.account_id;
END;
