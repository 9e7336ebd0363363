CREATE TABLE `email_daily` (
	`account_id` text NOT NULL,
	`dim` text NOT NULL,
	`day` integer NOT NULL,
	`accepted` integer DEFAULT 0 NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	`delivered` integer DEFAULT 0 NOT NULL,
	`bounced_hard` integer DEFAULT 0 NOT NULL,
	`bounced_soft` integer DEFAULT 0 NOT NULL,
	`complained` integer DEFAULT 0 NOT NULL,
	`opened` integer DEFAULT 0 NOT NULL,
	`clicked` integer DEFAULT 0 NOT NULL,
	`suppressed` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `dim`, `day`)
);
--> statement-breakpoint
-- Backfill
-- The email report's rollups rebuilt from the rows (issue 28): each fact on the UTC day it
-- happened, under every dimension of its email (the workspace '', its tags `t:name=value`, the
-- inbox of the ticket it replies in `i:inbox`). Rebuilt whole, so running it again gives the same
-- rows. `sent` (the first hand-off) has no time of its own: the email's first attempt-ending event
-- stands in for it (the same few seconds). The service's own mail is no workspace's. Two inserts,
-- as D1 allows at most 5 terms in a compound SELECT.
DELETE FROM `email_daily`;--> statement-breakpoint
INSERT INTO `email_daily` (`account_id`, `dim`, `day`, `accepted`, `sent`, `delivered`, `bounced_hard`, `bounced_soft`, `complained`, `opened`, `clicked`, `suppressed`, `failed`)
WITH `facts` (`email_id`, `counter`, `at`) AS (
  SELECT `id`, 'accepted', `created_at` FROM `emails`
  UNION ALL
  SELECT e.`id`, 'sent', (SELECT min(v.`created_at`) FROM `email_events` v WHERE v.`email_id` = e.`id`
      AND v.`type` IN ('sent', 'deferred', 'bounced', 'failed'))
    FROM `emails` e WHERE e.`handoff_attempt` IS NOT NULL
  UNION ALL
  SELECT `id`, 'delivered', `sent_at` FROM `emails` WHERE `sent_at` IS NOT NULL
  UNION ALL
  SELECT e.`id`, 'failed', (SELECT min(v.`created_at`) FROM `email_events` v WHERE v.`email_id` = e.`id` AND v.`type` = 'failed')
    FROM `emails` e WHERE e.`status` = 'failed'
),
`dims` (`email_id`, `account_id`, `dim`) AS (
  SELECT `id`, `account_id`, '' FROM `emails` WHERE `source` != 'system'
  UNION ALL
  SELECT t.`email_id`, e.`account_id`, 't:' || t.`name` || '=' || t.`value`
    FROM `email_tags` t JOIN `emails` e ON e.`id` = t.`email_id` WHERE e.`source` != 'system'
  UNION ALL
  SELECT DISTINCT m.`email_id`, e.`account_id`, 'i:' || k.`inbox_id`
    FROM `messages` m JOIN `tickets` k ON k.`id` = m.`ticket_id` JOIN `emails` e ON e.`id` = m.`email_id`
    WHERE e.`source` != 'system'
)
SELECT d.`account_id`, d.`dim`, f.`at` / 86400000,
  sum(f.`counter` = 'accepted'), sum(f.`counter` = 'sent'), sum(f.`counter` = 'delivered'), sum(f.`counter` = 'bounced_hard'), sum(f.`counter` = 'bounced_soft'), sum(f.`counter` = 'complained'), sum(f.`counter` = 'opened'), sum(f.`counter` = 'clicked'), sum(f.`counter` = 'suppressed'), sum(f.`counter` = 'failed')
FROM `facts` f JOIN `dims` d ON d.`email_id` = f.`email_id`
WHERE f.`at` IS NOT NULL
GROUP BY d.`account_id`, d.`dim`, f.`at` / 86400000
ON CONFLICT (`account_id`, `dim`, `day`) DO UPDATE SET `accepted` = `accepted` + excluded.`accepted`, `sent` = `sent` + excluded.`sent`, `delivered` = `delivered` + excluded.`delivered`, `bounced_hard` = `bounced_hard` + excluded.`bounced_hard`, `bounced_soft` = `bounced_soft` + excluded.`bounced_soft`, `complained` = `complained` + excluded.`complained`, `opened` = `opened` + excluded.`opened`, `clicked` = `clicked` + excluded.`clicked`, `suppressed` = `suppressed` + excluded.`suppressed`, `failed` = `failed` + excluded.`failed`;--> statement-breakpoint
INSERT INTO `email_daily` (`account_id`, `dim`, `day`, `accepted`, `sent`, `delivered`, `bounced_hard`, `bounced_soft`, `complained`, `opened`, `clicked`, `suppressed`, `failed`)
WITH `facts` (`email_id`, `counter`, `at`) AS (
  SELECT `email_id`, CASE `kind` WHEN 'hard' THEN 'bounced_hard' WHEN 'soft' THEN 'bounced_soft' ELSE 'complained' END, min(`created_at`)
    FROM `bounces` WHERE `email_id` IS NOT NULL GROUP BY `email_id`, `email`, `kind`
  UNION ALL
  SELECT `id`, 'opened', `first_opened_at` FROM `emails` WHERE `first_opened_at` IS NOT NULL
  UNION ALL
  SELECT `id`, 'clicked', `first_clicked_at` FROM `emails` WHERE `first_clicked_at` IS NOT NULL
),
`dims` (`email_id`, `account_id`, `dim`) AS (
  SELECT `id`, `account_id`, '' FROM `emails` WHERE `source` != 'system'
  UNION ALL
  SELECT t.`email_id`, e.`account_id`, 't:' || t.`name` || '=' || t.`value`
    FROM `email_tags` t JOIN `emails` e ON e.`id` = t.`email_id` WHERE e.`source` != 'system'
  UNION ALL
  SELECT DISTINCT m.`email_id`, e.`account_id`, 'i:' || k.`inbox_id`
    FROM `messages` m JOIN `tickets` k ON k.`id` = m.`ticket_id` JOIN `emails` e ON e.`id` = m.`email_id`
    WHERE e.`source` != 'system'
)
SELECT d.`account_id`, d.`dim`, f.`at` / 86400000,
  sum(f.`counter` = 'accepted'), sum(f.`counter` = 'sent'), sum(f.`counter` = 'delivered'), sum(f.`counter` = 'bounced_hard'), sum(f.`counter` = 'bounced_soft'), sum(f.`counter` = 'complained'), sum(f.`counter` = 'opened'), sum(f.`counter` = 'clicked'), sum(f.`counter` = 'suppressed'), sum(f.`counter` = 'failed')
FROM `facts` f JOIN `dims` d ON d.`email_id` = f.`email_id`
WHERE f.`at` IS NOT NULL
GROUP BY d.`account_id`, d.`dim`, f.`at` / 86400000
ON CONFLICT (`account_id`, `dim`, `day`) DO UPDATE SET `accepted` = `accepted` + excluded.`accepted`, `sent` = `sent` + excluded.`sent`, `delivered` = `delivered` + excluded.`delivered`, `bounced_hard` = `bounced_hard` + excluded.`bounced_hard`, `bounced_soft` = `bounced_soft` + excluded.`bounced_soft`, `complained` = `complained` + excluded.`complained`, `opened` = `opened` + excluded.`opened`, `clicked` = `clicked` + excluded.`clicked`, `suppressed` = `suppressed` + excluded.`suppressed`, `failed` = `failed` + excluded.`failed`;
