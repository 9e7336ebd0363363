-- Reports and dropped mail become lists of the API (issue 27): each row gets a public id, and a
-- report the columns its list shows. SQLite cannot add a NOT NULL column without a constant
-- default to a table that has rows, so both tables are rebuilt (nothing references them) and
-- their rows copied. Existing rows get a `<prefix>_<ULID>` made of their created_at and 64 random
-- bits (hex is a subset of ULID's alphabet).
CREATE TABLE `__new_dropped_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
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
INSERT INTO `__new_dropped_mail` (`id`, `public_id`, `account_id`, `inbox_id`, `reason`, `detail`, `mail_from`, `rcpt_to`, `message_id`, `raw_key`, `raw_size`, `created_at`)
SELECT `id`, 'drp_' ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 45) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 40) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 35) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 30) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 25) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 20) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 15) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 10) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 5) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((created_at >> 0) & 31) + 1, 1) ||
    hex(randomblob(8)),
  `account_id`, `inbox_id`, `reason`, `detail`, `mail_from`, `rcpt_to`, `message_id`, `raw_key`, `raw_size`, `created_at`
FROM `dropped_mail`;--> statement-breakpoint
DROP TABLE `dropped_mail`;--> statement-breakpoint
ALTER TABLE `__new_dropped_mail` RENAME TO `dropped_mail`;--> statement-breakpoint
CREATE INDEX `dropped_mail_created` ON `dropped_mail` (`created_at`);--> statement-breakpoint
CREATE INDEX `dropped_mail_account_created` ON `dropped_mail` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `dropped_mail_account_inbox` ON `dropped_mail` (`account_id`,`inbox_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `dropped_mail_account_reason` ON `dropped_mail` (`account_id`,`reason`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `dropped_mail_public_id` ON `dropped_mail` (`public_id`);--> statement-breakpoint
CREATE TABLE `__new_mail_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`public_id` text NOT NULL,
	`account_id` text,
	`email_id` text,
	`type` text,
	`outcome` text NOT NULL,
	`kind` text NOT NULL,
	`recipient` text,
	`bounce_type` text,
	`status_code` text,
	`reply_code` text,
	`diagnostic` text,
	`reporting_mta` text,
	`action` text NOT NULL,
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
-- The listed recipient of an existing report: the one it was counted for, else the first in
-- `detail`. Whether it suppressed is read from the suppressions as they stand: one made at or
-- before the report's time for that address (a suppression removed since reads as counted).
INSERT INTO `__new_mail_reports` (`id`, `public_id`, `account_id`, `email_id`, `type`, `outcome`, `kind`, `recipient`, `bounce_type`, `status_code`, `reply_code`, `diagnostic`, `reporting_mta`, `action`, `detail`, `mail_from`, `rcpt_to`, `message_id`, `raw_key`, `raw_size`, `created_at`)
SELECT r.`id`, 'rpt_' ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 45) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 40) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 35) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 30) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 25) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 20) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 15) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 10) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 5) & 31) + 1, 1) ||
    substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((r.`created_at` >> 0) & 31) + 1, 1) ||
    hex(randomblob(8)),
  r.`account_id`, r.`email_id`, r.`type`, r.`outcome`,
  CASE r.`type` WHEN 'delivery_status' THEN 'bounce' WHEN 'feedback' THEN 'complaint' ELSE 'unsupported' END,
  json_extract(r.`listed`, '$.address'),
  CASE WHEN json_extract(r.`listed`, '$.kind') IN ('hard', 'soft') THEN json_extract(r.`listed`, '$.kind') END,
  json_extract(r.`listed`, '$.status'),
  json_extract(r.`listed`, '$.replyCode'),
  json_extract(r.`listed`, '$.diagnostic'),
  NULL,
  CASE
    WHEN NOT coalesce(json_extract(r.`listed`, '$.counted'), 0) THEN 'ignored'
    WHEN EXISTS (SELECT 1 FROM `suppressions` s WHERE s.`account_id` = r.`account_id`
      AND s.`email` = json_extract(r.`listed`, '$.address') AND s.`created_at` <= r.`created_at`) THEN 'suppressed'
    ELSE 'counted'
  END,
  r.`detail`, r.`mail_from`, r.`rcpt_to`, r.`message_id`, r.`raw_key`, r.`raw_size`, r.`created_at`
FROM (
  SELECT m.*, (SELECT d.`value` FROM json_each(CASE WHEN json_valid(m.`detail`) THEN m.`detail` ELSE '[]' END) d
      ORDER BY coalesce(json_extract(d.`value`, '$.counted'), 0) DESC, d.`key` LIMIT 1) AS `listed`
  FROM `mail_reports` m
) r;--> statement-breakpoint
DROP TABLE `mail_reports`;--> statement-breakpoint
ALTER TABLE `__new_mail_reports` RENAME TO `mail_reports`;--> statement-breakpoint
CREATE INDEX `mail_reports_created` ON `mail_reports` (`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_account_created` ON `mail_reports` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_account_kind` ON `mail_reports` (`account_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_account_email` ON `mail_reports` (`account_id`,`email_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `mail_reports_account_recipient` ON `mail_reports` (`account_id`,`recipient`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `mail_reports_public_id` ON `mail_reports` (`public_id`);
