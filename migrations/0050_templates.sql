CREATE TABLE `template_versions` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`template_id` text NOT NULL,
	`name` text NOT NULL,
	`subject` text,
	`html` text NOT NULL,
	`text` text,
	`from_address` text,
	`reply_to` text DEFAULT '[]' NOT NULL,
	`variables` text DEFAULT '[]' NOT NULL,
	`published_at` integer,
	`revision` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `template_versions_account_template` ON `template_versions` (`account_id`,`template_id`,`id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`alias` text,
	`current_version_id` text NOT NULL,
	`published_version_id` text,
	`published_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `templates_account_id` ON `templates` (`account_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `templates_account_alias` ON `templates` (`account_id`,`alias`);--> statement-breakpoint
ALTER TABLE `emails` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `emails` ADD `template_version_id` text;