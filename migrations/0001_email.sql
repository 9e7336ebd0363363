CREATE TABLE `account_usage` (
	`account_id` text PRIMARY KEY NOT NULL,
	`month_start` integer DEFAULT 0 NOT NULL,
	`emails_month` integer DEFAULT 0 NOT NULL,
	`day_start` integer DEFAULT 0 NOT NULL,
	`emails_day` integer DEFAULT 0 NOT NULL,
	`hour_start` integer DEFAULT 0 NOT NULL,
	`emails_hour` integer DEFAULT 0 NOT NULL,
	`storage_bytes` integer DEFAULT 0 NOT NULL,
	`team_members` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `connections` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`domain` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`dkim_selector` text NOT NULL,
	`dkim_public_key` text NOT NULL,
	`dkim_private_key_encrypted` text NOT NULL,
	`checks` text DEFAULT '[]' NOT NULL,
	`last_checked_at` integer,
	`verified_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `connections_account_domain` ON `connections` (`account_id`,`domain`);--> statement-breakpoint
CREATE INDEX `connections_account_created` ON `connections` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `email_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email_id` text NOT NULL,
	`type` text NOT NULL,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`email_id`) REFERENCES `emails`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_events_email` ON `email_events` (`email_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `email_recipients` (
	`email_id` text NOT NULL,
	`account_id` text NOT NULL,
	`address` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`email_id`, `address`),
	FOREIGN KEY (`email_id`) REFERENCES `emails`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_recipients_account_address` ON `email_recipients` (`account_id`,`address`,`created_at`,`email_id`);--> statement-breakpoint
CREATE TABLE `email_tags` (
	`email_id` text NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`email_id`, `name`),
	FOREIGN KEY (`email_id`) REFERENCES `emails`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_tags_account_name_value` ON `email_tags` (`account_id`,`name`,`value`,`created_at`,`email_id`);--> statement-breakpoint
CREATE TABLE `emails` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`connection_id` text,
	`source` text DEFAULT 'api' NOT NULL,
	`from_header` text NOT NULL,
	`from_address` text NOT NULL,
	`to_list` text NOT NULL,
	`cc_list` text DEFAULT '[]' NOT NULL,
	`bcc_list` text DEFAULT '[]' NOT NULL,
	`reply_to_list` text DEFAULT '[]' NOT NULL,
	`subject` text NOT NULL,
	`html` text,
	`text` text,
	`headers` text DEFAULT '{}' NOT NULL,
	`tags` text DEFAULT '[]' NOT NULL,
	`attachments` text DEFAULT '[]' NOT NULL,
	`track_opens` integer DEFAULT false NOT NULL,
	`track_clicks` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`scheduled_at` integer,
	`message_id` text NOT NULL,
	`last_event` text NOT NULL,
	`last_event_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_response` text,
	`size` integer,
	`open_count` integer DEFAULT 0 NOT NULL,
	`first_opened_at` integer,
	`last_opened_at` integer,
	`click_count` integer DEFAULT 0 NOT NULL,
	`first_clicked_at` integer,
	`last_clicked_at` integer,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `emails_account_created` ON `emails` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `emails_account_status_created` ON `emails` (`account_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `emails_account_status_scheduled` ON `emails` (`account_id`,`status`,`scheduled_at`,`id`);--> statement-breakpoint
CREATE INDEX `emails_status_scheduled` ON `emails` (`status`,`scheduled_at`);--> statement-breakpoint
CREATE INDEX `emails_status_updated` ON `emails` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` text NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer NOT NULL,
	`response_body` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `key`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `bounces` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`kind` text NOT NULL,
	`email_id` text,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bounces_account_email_created` ON `bounces` (`account_id`,`email`,`created_at`);--> statement-breakpoint
CREATE TABLE `suppressions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`reason` text NOT NULL,
	`source_email_id` text,
	`detail` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `suppressions_account_email` ON `suppressions` (`account_id`,`email`);--> statement-breakpoint
CREATE INDEX `suppressions_account_created` ON `suppressions` (`account_id`,`created_at`,`id`);--> statement-breakpoint
DROP TABLE `usage_counters`;