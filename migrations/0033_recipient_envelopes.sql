ALTER TABLE `email_recipients` ADD `attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `email_recipients` ADD `retry_at` integer;--> statement-breakpoint
-- Recipients deferred before tries were counted per recipient: their email's tries were theirs.
UPDATE `email_recipients` SET
  `attempts` = (SELECT `attempts` FROM `emails` WHERE `seq` = `email_recipients`.`email_seq`),
  `retry_at` = (SELECT `next_attempt_at` FROM `emails` WHERE `seq` = `email_recipients`.`email_seq`)
WHERE `state` = 'deferred';
