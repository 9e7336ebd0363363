ALTER TABLE `email_recipients` ADD `state` text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE `email_recipients` ADD `response` text;--> statement-breakpoint
ALTER TABLE `emails` ADD `lease_until` integer;--> statement-breakpoint
ALTER TABLE `emails` ADD `handoff_attempt` integer;--> statement-breakpoint
ALTER TABLE `emails` ADD `stored_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `emails_status_lease` ON `emails` (`status`,`lease_until`);--> statement-breakpoint
-- Emails that already went out: their recipients are not to be sent to again.
UPDATE `email_recipients` SET `state` = 'accepted'
WHERE `email_id` IN (SELECT `id` FROM `emails` WHERE `status` IN ('sent', 'delivered'));--> statement-breakpoint
-- Retries used to record a soft bounce each: keep the first of each email and recipient.
DELETE FROM `bounces` WHERE `kind` = 'soft' AND `email_id` IS NOT NULL AND `id` NOT IN (
  SELECT min(`id`) FROM `bounces` WHERE `kind` = 'soft' AND `email_id` IS NOT NULL GROUP BY `email_id`, `email`
);--> statement-breakpoint
CREATE UNIQUE INDEX `bounces_soft_once` ON `bounces` (`email_id`,`email`) WHERE kind = 'soft' AND email_id IS NOT NULL;--> statement-breakpoint
-- The storage quota counts the bytes kept in R2. Writers reserve what they add with a conditional
-- increment (so the limit holds under concurrency); these triggers give it back whatever deletes
-- the rows: a ticket or inbox deletion's cascades, a draft's deletion, an account's.
UPDATE `emails` SET `stored_bytes` = coalesce(`size`, 0)
  + (SELECT coalesce(sum(j.value ->> 'size'), 0) FROM json_each(`emails`.`attachments`) AS j);--> statement-breakpoint
INSERT INTO `account_usage` (`account_id`, `storage_bytes`)
SELECT `account_id`, sum(`bytes`) FROM (
  SELECT `account_id`, `size` AS `bytes` FROM `message_attachments`
  UNION ALL
  SELECT `account_id`, `stored_bytes` AS `bytes` FROM `emails`
) GROUP BY `account_id`
ON CONFLICT(`account_id`) DO UPDATE SET `storage_bytes` = excluded.`storage_bytes`;--> statement-breakpoint
CREATE TRIGGER `message_attachments_storage_delete` AFTER DELETE ON `message_attachments`
BEGIN
  UPDATE `account_usage` SET `storage_bytes` = max(`storage_bytes` - OLD.`size`, 0)
  WHERE `account_id` = OLD.`account_id`;
END;--> statement-breakpoint
CREATE TRIGGER `emails_storage_delete` AFTER DELETE ON `emails`
BEGIN
  UPDATE `account_usage` SET `storage_bytes` = max(`storage_bytes` - OLD.`stored_bytes`, 0)
  WHERE `account_id` = OLD.`account_id`;
END;
