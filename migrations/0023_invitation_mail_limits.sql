CREATE TABLE `invitation_mail_counts` (
	`account_id` text NOT NULL,
	`hour_start` integer NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `hour_start`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `invitations` ADD `resend_count` integer DEFAULT 0 NOT NULL;