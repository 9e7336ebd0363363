ALTER TABLE `emails` ADD `next_attempt_at` integer;--> statement-breakpoint
CREATE INDEX `email_tags_account_name` ON `email_tags` (`account_id`,`name`,`created_at`,`email_id`);