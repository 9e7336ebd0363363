CREATE TABLE `dropped_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text,
	`mail_from` text NOT NULL,
	`rcpt_to` text NOT NULL,
	`message_id` text,
	`raw_key` text NOT NULL,
	`raw_size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `dropped_mail_created` ON `dropped_mail` (`created_at`);--> statement-breakpoint
CREATE INDEX `dropped_mail_account_created` ON `dropped_mail` (`account_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `message_attachments` ADD `content_id` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `raw_key` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `raw_size` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `messages` ADD `stripped_text` text;--> statement-breakpoint
ALTER TABLE `messages` ADD `auto_submitted` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `messages_account_email_message_id` ON `messages` (`account_id`,`email_message_id`);--> statement-breakpoint
-- The raw MIME of an inbound message counts toward the storage quota like its attachments (0008):
-- whatever deletes the message (its ticket's or inbox's deletion) gives its bytes back.
CREATE TRIGGER `messages_raw_storage_delete` AFTER DELETE ON `messages` WHEN OLD.`raw_size` > 0
BEGIN
  UPDATE `account_usage` SET `storage_bytes` = max(`storage_bytes` - OLD.`raw_size`, 0)
  WHERE `account_id` = OLD.`account_id`;
END;
