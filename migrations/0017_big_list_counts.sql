CREATE TABLE `request_logs_counts` (
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`status` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `key_id`, `status`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `events_counts` (
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`event` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `inbox_id`, `event`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_logs_account_key_status_created` ON `request_logs` (`account_id`,`key_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_account_inbox_event_created` ON `events` (`account_id`,`inbox_id`,`event`,`created_at`,`id`);--> statement-breakpoint
-- The counters start exact on a database that already has logs and events.
INSERT INTO request_logs_counts (account_id, key_id, status, count)
SELECT account_id, coalesce(key_id, ''), status, count(*) FROM request_logs GROUP BY account_id, coalesce(key_id, ''), status;
--> statement-breakpoint
INSERT INTO events_counts (account_id, inbox_id, event, count)
SELECT account_id, inbox_id, event, count(*) FROM events GROUP BY account_id, inbox_id, event;
--> statement-breakpoint
-- Whatever writes request logs or events (the queue consumer's inserts, the retention prunes, an
-- account's cascade) goes through these triggers, so the list totals never count rows.
CREATE TRIGGER request_logs_count_insert AFTER INSERT ON request_logs
BEGIN
  INSERT INTO request_logs_counts (account_id, key_id, status, count)
  VALUES (NEW.account_id, coalesce(NEW.key_id, ''), NEW.status, 1)
  ON CONFLICT (account_id, key_id, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER request_logs_count_delete AFTER DELETE ON request_logs
BEGIN
  UPDATE request_logs_counts SET count = count - 1
  WHERE account_id = OLD.account_id AND key_id = coalesce(OLD.key_id, '') AND status = OLD.status;
END;
--> statement-breakpoint
CREATE TRIGGER events_count_insert AFTER INSERT ON events
BEGIN
  INSERT INTO events_counts (account_id, inbox_id, event, count)
  VALUES (NEW.account_id, NEW.inbox_id, NEW.event, 1)
  ON CONFLICT (account_id, inbox_id, event) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_count_delete AFTER DELETE ON events
BEGIN
  UPDATE events_counts SET count = count - 1
  WHERE account_id = OLD.account_id AND inbox_id = OLD.inbox_id AND event = OLD.event;
END;
