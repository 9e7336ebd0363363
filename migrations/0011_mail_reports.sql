CREATE TABLE `mail_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text,
	`email_id` text,
	`type` text,
	`outcome` text NOT NULL,
	`detail` text NOT NULL,
	`mail_from` text NOT NULL,
	`rcpt_to` text NOT NULL,
	`message_id` text,
	`raw_key` text NOT NULL,
	`raw_size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mail_reports_created` ON `mail_reports` (`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_account_created` ON `mail_reports` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_email` ON `mail_reports` (`email_id`);--> statement-breakpoint
CREATE INDEX `emails_account_message_id` ON `emails` (`account_id`,`message_id`);