CREATE TABLE `log_accounts` (
	`n` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`retention_seconds` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `log_accounts_id_unique` ON `log_accounts` (`id`);--> statement-breakpoint
CREATE TABLE `log_agents` (
	`n` integer PRIMARY KEY NOT NULL,
	`user_agent` text NOT NULL,
	`last_used_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `log_agents_user_agent_unique` ON `log_agents` (`user_agent`);--> statement-breakpoint
CREATE INDEX `log_agents_last_used` ON `log_agents` (`last_used_at`);--> statement-breakpoint
CREATE TABLE `log_keys` (
	`n` integer PRIMARY KEY NOT NULL,
	`account` integer NOT NULL,
	`id` text NOT NULL,
	`prefix` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `log_keys_id_unique` ON `log_keys` (`id`);--> statement-breakpoint
CREATE INDEX `log_keys_account` ON `log_keys` (`account`);--> statement-breakpoint
CREATE TABLE `request_logs_counts` (
	`account` integer NOT NULL,
	`key` integer NOT NULL,
	`status` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account`, `key`, `status`)
);
--> statement-breakpoint
CREATE TABLE `request_logs` (
	`n` integer PRIMARY KEY NOT NULL,
	`account` integer NOT NULL,
	`key` integer NOT NULL,
	`request_id` blob NOT NULL,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`ip` text,
	`error_code` text,
	`created_at` integer NOT NULL,
	`agent` integer
);
--> statement-breakpoint
CREATE INDEX `request_logs_account_created` ON `request_logs` (`account`,`created_at`);--> statement-breakpoint
CREATE INDEX `request_logs_account_status_created` ON `request_logs` (`account`,`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `request_logs_account_key_created` ON `request_logs` (`account`,`key`,`created_at`);--> statement-breakpoint
CREATE INDEX `request_logs_account_key_status_created` ON `request_logs` (`account`,`key`,`status`,`created_at`);--> statement-breakpoint
-- Whatever writes logs (the queue consumer's inserts, the retention prune, an account's removal)
-- goes through these triggers, so the list totals never count rows.
CREATE TRIGGER request_logs_count_insert AFTER INSERT ON request_logs
BEGIN
  INSERT INTO request_logs_counts (account, key, status, count)
  VALUES (NEW.account, NEW.key, NEW.status, 1)
  ON CONFLICT (account, key, status) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER request_logs_count_delete AFTER DELETE ON request_logs
BEGIN
  UPDATE request_logs_counts SET count = count - 1
  WHERE account = OLD.account AND key = OLD.key AND status = OLD.status;
END;
