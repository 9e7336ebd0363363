CREATE TABLE `ticket_views` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`owner_user_id` text,
	`name` text NOT NULL,
	`filters` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_views_account_created` ON `ticket_views` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `ticket_views_owner` ON `ticket_views` (`owner_user_id`);--> statement-breakpoint
CREATE INDEX `tickets_account_assignee_status_created` ON `tickets` (`account_id`,`assignee_id`,`status`,`created_at`,`id`);