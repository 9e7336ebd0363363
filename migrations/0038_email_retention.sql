CREATE TABLE `email_archive_parts` (
	`account_id` text NOT NULL,
	`day` integer NOT NULL,
	`part` integer NOT NULL,
	`state` text NOT NULL,
	`token` text NOT NULL,
	`emails` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`etag` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `day`, `part`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_archive_parts_writing` ON `email_archive_parts` (`created_at`) WHERE state = 'writing';--> statement-breakpoint
CREATE INDEX `email_archive_parts_day` ON `email_archive_parts` (`day`);--> statement-breakpoint
CREATE TABLE `email_archives` (
	`account_id` text NOT NULL,
	`day` integer NOT NULL,
	`parts` integer DEFAULT 0 NOT NULL,
	`emails` integer DEFAULT 0 NOT NULL,
	`bytes` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `day`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `email_retention_days` integer;