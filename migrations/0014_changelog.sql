CREATE TABLE `changelog_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`title` text NOT NULL,
	`body_markdown` text NOT NULL,
	`body_html` text NOT NULL,
	`category` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`published_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `changelog_account_created` ON `changelog_entries` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `changelog_account_status_published` ON `changelog_entries` (`account_id`,`status`,`published_at`,`id`);--> statement-breakpoint
CREATE INDEX `changelog_status_published` ON `changelog_entries` (`status`,`published_at`);