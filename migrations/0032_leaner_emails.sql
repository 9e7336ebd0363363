-- Issue 29: an email keeps nothing twice. Its tags live in `email_tags` alone (the API reads them
-- from there, in the caller's order, now kept in `position`), not also as JSON on the row; its
-- sender's address is computed from the From header as the row is read (a virtual column: no
-- bytes stored); its acceptance is its own `created_at`, not also an event row (nothing reads that
-- event); and a recipient or a transport event whose answer is its email's `last_response` keeps
-- NULL instead of a copy (features/emails/shared-response.ts). Every email, recipient and tag is kept; only
-- the creation events go, each of which says no more than its email's `created_at`.
ALTER TABLE `email_tags` ADD `position` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A tag the JSON names but no row holds (none should be: both were written in one batch) gets its
-- row before the JSON goes, so no tag is lost.
INSERT OR IGNORE INTO `email_tags` (`email_seq`, `account_seq`, `name`, `value`, `position`, `created_at`)
SELECT e.`seq`, e.`account_seq`, j.`value` ->> 'name', j.`value` ->> 'value', j.`key`, e.`created_at`
FROM `emails` e, json_each(e.`tags`) AS j
WHERE e.`tags` != '[]' AND j.`value` ->> 'name' IS NOT NULL AND j.`value` ->> 'value' IS NOT NULL;
--> statement-breakpoint
UPDATE `email_tags` SET `position` = (
  SELECT j.`key` FROM `emails` e, json_each(e.`tags`) AS j
  WHERE e.`seq` = `email_tags`.`email_seq` AND j.`value` ->> 'name' = `email_tags`.`name`)
WHERE EXISTS (
  SELECT 1 FROM `emails` e, json_each(e.`tags`) AS j
  WHERE e.`seq` = `email_tags`.`email_seq` AND j.`value` ->> 'name' = `email_tags`.`name` AND j.`key` > 0);
--> statement-breakpoint
-- Keyed by (email, position) instead of (email, name), so an email's tags are read in the caller's
-- order straight from the key, without a sort for every email a list shows. Names stay distinct
-- per email (the API refuses a repeated name). Numbered again from 0 in that order, so no two tags
-- of an email share a position even if some had none.
CREATE TABLE `email_tags_ordered` (
	`email_seq` integer NOT NULL,
	`account_seq` integer NOT NULL,
	`name` text NOT NULL,
	`value` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`email_seq`, `position`),
	FOREIGN KEY (`email_seq`) REFERENCES `emails`(`seq`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `email_tags_ordered` (`email_seq`, `account_seq`, `name`, `value`, `position`, `created_at`)
SELECT `email_seq`, `account_seq`, `name`, `value`,
  row_number() OVER (PARTITION BY `email_seq` ORDER BY `position`, `name`) - 1, `created_at`
FROM `email_tags`;
--> statement-breakpoint
DROP TABLE `email_tags`;
--> statement-breakpoint
ALTER TABLE `email_tags_ordered` RENAME TO `email_tags`;
--> statement-breakpoint
CREATE INDEX `email_tags_account_name_value` ON `email_tags` (`account_seq`,`name`,`value`,`created_at`);
--> statement-breakpoint
CREATE INDEX `email_tags_account_name` ON `email_tags` (`account_seq`,`name`,`created_at`);
--> statement-breakpoint
DELETE FROM `email_events`
WHERE `type` IN ('accepted', 'queued', 'scheduled') AND EXISTS (
  SELECT 1 FROM `emails` e WHERE e.`seq` = `email_events`.`email_seq` AND e.`created_at` = `email_events`.`created_at`);
--> statement-breakpoint
ALTER TABLE `emails` DROP COLUMN `tags`;
--> statement-breakpoint
ALTER TABLE `emails` DROP COLUMN `from_address`;
--> statement-breakpoint
-- The address in the From header the service wrote (`address` or `Name <address>`; an address
-- never holds `<`): what follows its last `<`, without the closing `>`.
ALTER TABLE `emails` ADD `from_address` text GENERATED ALWAYS AS (CASE WHEN substr(from_header, -1) = '>' THEN substr(from_header,
  length(rtrim(from_header, replace(from_header, '<', ''))) + 1,
  length(from_header) - length(rtrim(from_header, replace(from_header, '<', ''))) - 1) ELSE from_header END) VIRTUAL NOT NULL;
--> statement-breakpoint
-- When an email's answer changes, the recipients and events that shared it get it written out:
-- each keeps the answer it was given, whichever statement changes the email's.
CREATE TRIGGER `emails_last_response_kept` AFTER UPDATE OF `last_response` ON `emails`
WHEN OLD.`last_response` IS NOT NEW.`last_response`
BEGIN
  UPDATE `email_recipients` SET `response` = OLD.`last_response`
  WHERE `email_seq` = OLD.`seq` AND `response` IS NULL AND `state` IN ('accepted', 'deferred', 'rejected', 'unknown');
  UPDATE `email_events` SET `detail` = OLD.`last_response`
  WHERE `email_seq` = OLD.`seq` AND `detail` IS NULL AND `type` IN ('sent', 'deferred', 'failed');
END;
--> statement-breakpoint
UPDATE `email_recipients` SET `response` = NULL
WHERE `state` IN ('accepted', 'deferred', 'rejected', 'unknown')
  AND `response` = (SELECT `last_response` FROM `emails` WHERE `seq` = `email_recipients`.`email_seq`);
--> statement-breakpoint
UPDATE `email_events` SET `detail` = NULL
WHERE `type` IN ('sent', 'deferred', 'failed')
  AND `detail` = (SELECT `last_response` FROM `emails` WHERE `seq` = `email_events`.`email_seq`);
