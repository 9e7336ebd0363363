CREATE TABLE `ticket_facet_counts` (
	`account_id` text NOT NULL,
	`facet` text NOT NULL,
	`value` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `facet`, `value`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tickets_account_status_priority_created` ON `tickets` (`account_id`,`status`,`priority`,`created_at`,`id`);--> statement-breakpoint
-- Keeps ticket_facet_counts in step with tickets and ticket_tags, whatever writes them: creation,
-- PATCH and the manage actions, merges, deletes, the removal of a user (unassigns), and the
-- cascades of an inbox, tag or account deletion all go through these triggers. Each trigger runs
-- inside the statement that fired it, so concurrent updates of one ticket cannot lose a count.
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'status', status, count(*) FROM tickets WHERE true GROUP BY account_id, status
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'priority', priority, count(*) FROM tickets WHERE true GROUP BY account_id, priority
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'status_priority', status || ':' || priority, count(*) FROM tickets WHERE true GROUP BY account_id, status || ':' || priority
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'inbox', inbox_id, count(*) FROM tickets WHERE true GROUP BY account_id, inbox_id
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'assignee', assignee_id, count(*) FROM tickets WHERE assignee_id IS NOT NULL GROUP BY account_id, assignee_id
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
INSERT INTO ticket_facet_counts (account_id, facet, value, total)
SELECT account_id, 'tag', tag_id, count(*) FROM ticket_tags WHERE true GROUP BY account_id, tag_id
ON CONFLICT(account_id, facet, value) DO UPDATE SET total = excluded.total;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_insert AFTER INSERT ON tickets
BEGIN
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'status', NEW.status, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'priority', NEW.priority, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'status_priority', NEW.status || ':' || NEW.priority, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'inbox', NEW.inbox_id, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total)
  SELECT NEW.account_id, 'assignee', NEW.assignee_id, 1 WHERE NEW.assignee_id IS NOT NULL
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_delete AFTER DELETE ON tickets
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'status' AND value = OLD.status;
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'priority' AND value = OLD.priority;
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'status_priority' AND value = OLD.status || ':' || OLD.priority;
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'inbox' AND value = OLD.inbox_id;
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'assignee' AND value = OLD.assignee_id;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_status AFTER UPDATE OF status ON tickets WHEN OLD.status <> NEW.status
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'status' AND value = OLD.status;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'status', NEW.status, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_priority AFTER UPDATE OF priority ON tickets WHEN OLD.priority <> NEW.priority
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'priority' AND value = OLD.priority;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'priority', NEW.priority, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_status_priority AFTER UPDATE OF status, priority ON tickets
WHEN OLD.status <> NEW.status OR OLD.priority <> NEW.priority
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'status_priority' AND value = OLD.status || ':' || OLD.priority;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total)
  VALUES (NEW.account_id, 'status_priority', NEW.status || ':' || NEW.priority, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_inbox AFTER UPDATE OF inbox_id ON tickets WHEN OLD.inbox_id <> NEW.inbox_id
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'inbox' AND value = OLD.inbox_id;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'inbox', NEW.inbox_id, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER tickets_facets_assignee AFTER UPDATE OF assignee_id ON tickets
WHEN OLD.assignee_id IS NOT NEW.assignee_id
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'assignee' AND value = OLD.assignee_id;
  INSERT INTO ticket_facet_counts (account_id, facet, value, total)
  SELECT NEW.account_id, 'assignee', NEW.assignee_id, 1 WHERE NEW.assignee_id IS NOT NULL
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_tags_facets_insert AFTER INSERT ON ticket_tags
BEGIN
  INSERT INTO ticket_facet_counts (account_id, facet, value, total) VALUES (NEW.account_id, 'tag', NEW.tag_id, 1)
  ON CONFLICT(account_id, facet, value) DO UPDATE SET total = total + 1;
END;
--> statement-breakpoint
CREATE TRIGGER ticket_tags_facets_delete AFTER DELETE ON ticket_tags
BEGIN
  UPDATE ticket_facet_counts SET total = total - 1
  WHERE account_id = OLD.account_id AND facet = 'tag' AND value = OLD.tag_id;
END;
--> statement-breakpoint
CREATE TRIGGER tags_facets_delete AFTER DELETE ON tags
BEGIN
  DELETE FROM ticket_facet_counts WHERE account_id = OLD.account_id AND facet = 'tag' AND value = OLD.id;
END;
--> statement-breakpoint
CREATE TRIGGER inboxes_facets_delete AFTER DELETE ON inboxes
BEGIN
  DELETE FROM ticket_facet_counts WHERE account_id = OLD.account_id AND facet = 'inbox' AND value = OLD.id;
END;
