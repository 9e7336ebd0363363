CREATE TABLE `accounts` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text DEFAULT 'free' NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`ticket_prefix` text DEFAULT 'TKT' NOT NULL,
	`ticket_sequence` integer DEFAULT 0 NOT NULL,
	`request_log_retention` text DEFAULT '7d' NOT NULL,
	`request_log_retention_seconds` integer DEFAULT 604800 NOT NULL,
	`default_track_opens` integer DEFAULT false NOT NULL,
	`default_track_clicks` integer DEFAULT false NOT NULL,
	`quota_overrides` text DEFAULT '{}' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`key_prefix` text NOT NULL,
	`token_hash` text NOT NULL,
	`permission` text NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`last_used_at` integer,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_token_hash_unique` ON `api_keys` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account_created` ON `api_keys` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `request_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text,
	`key_prefix` text,
	`method` text NOT NULL,
	`path` text NOT NULL,
	`status` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`ip` text,
	`user_agent` text,
	`error_code` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `request_logs_account_created` ON `request_logs` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `request_logs_account_status_created` ON `request_logs` (`account_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `request_logs_account_key_created` ON `request_logs` (`account_id`,`key_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `usage_counters` (
	`account_id` text NOT NULL,
	`metric` text NOT NULL,
	`window_start` integer NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `metric`, `window_start`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
