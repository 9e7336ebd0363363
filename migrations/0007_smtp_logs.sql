CREATE TABLE `smtp_logs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text,
	`session_id` text NOT NULL,
	`key_id` text,
	`key_prefix` text,
	`client_ip` text NOT NULL,
	`tls` text,
	`auth` text NOT NULL,
	`mail_from` text,
	`rcpt_to` text DEFAULT '[]' NOT NULL,
	`size` integer,
	`outcome` text NOT NULL,
	`reply_code` integer NOT NULL,
	`reply` text NOT NULL,
	`email_id` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `smtp_logs_account_created` ON `smtp_logs` (`account_id`,`created_at`,`id`);