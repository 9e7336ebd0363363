-- A ticket's `version` (its ETag) moves with every change GET /v1/tickets/{id} would show, whatever
-- writes it (API, dashboard, inbound mail, portal, merges, assignment, sweeps): any update of the
-- row, a tag linked or unlinked, a tag renamed, the customer's name or email changed. The row's own
-- trigger skips an update that sets `version` itself, which is how its own update does not loop.
CREATE TRIGGER tickets_version_bump AFTER UPDATE ON tickets WHEN NEW.version = OLD.version
BEGIN
  UPDATE tickets SET version = OLD.version + 1 WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_tags_version_insert AFTER INSERT ON ticket_tags
BEGIN
  UPDATE tickets SET version = version + 1 WHERE id = NEW.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_tags_version_delete AFTER DELETE ON ticket_tags
BEGIN
  UPDATE tickets SET version = version + 1 WHERE id = OLD.ticket_id;
END;
--> statement-breakpoint
CREATE TRIGGER tags_version_rename AFTER UPDATE OF name ON tags WHEN OLD.name <> NEW.name
BEGIN
  UPDATE tickets SET version = version + 1
  WHERE id IN (SELECT ticket_id FROM ticket_tags WHERE tag_id = NEW.id);
END;
--> statement-breakpoint
CREATE TRIGGER customers_version_contact AFTER UPDATE OF name, email ON customers
  WHEN OLD.email <> NEW.email OR OLD.name IS NOT NEW.name
BEGIN
  UPDATE tickets SET version = version + 1 WHERE customer_id = NEW.id;
END;
--> statement-breakpoint
-- If-Match, atomic with the write: a conditional write's batch inserts its expectation here first
-- (the ticket, its workspace, the versions that match as a JSON array, or NULL for `*`); when the
-- ticket is not at one of them the insert aborts, and with it the whole batch. Nothing is stored.
CREATE VIEW ticket_version_checks AS
SELECT id AS ticket_id, account_id, NULL AS versions FROM tickets WHERE 0;
--> statement-breakpoint
CREATE TRIGGER ticket_version_checks_insert INSTEAD OF INSERT ON ticket_version_checks
BEGIN
  SELECT RAISE(ABORT, 'ticket_changed')
  WHERE NOT EXISTS (
    SELECT 1 FROM tickets t
    WHERE t.id = NEW.ticket_id AND t.account_id = NEW.account_id
      AND (NEW.versions IS NULL OR t.version IN (SELECT value FROM json_each(NEW.versions)))
  );
END;
