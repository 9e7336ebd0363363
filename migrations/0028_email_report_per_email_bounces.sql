CREATE INDEX `bounces_email_kind` ON `bounces` (`email_id`,`kind`);--> statement-breakpoint
-- Backfill: bounces and complaints were counted once per email and recipient; they count once
-- per email now (its first bounce of each kind, on that day), the unit of `sent` and `delivered`.
-- Zero them and count them again from `bounces` under the same dimensions as 0025.
UPDATE `email_daily` SET `bounced_hard` = 0, `bounced_soft` = 0, `complained` = 0;--> statement-breakpoint
INSERT INTO `email_daily` (`account_id`, `dim`, `day`, `bounced_hard`, `bounced_soft`, `complained`)
WITH `facts` (`email_id`, `counter`, `at`) AS (
  SELECT `email_id`, CASE `kind` WHEN 'hard' THEN 'bounced_hard' WHEN 'soft' THEN 'bounced_soft' ELSE 'complained' END, min(`created_at`)
    FROM `bounces` WHERE `email_id` IS NOT NULL GROUP BY `email_id`, `kind`
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
  sum(f.`counter` = 'bounced_hard'), sum(f.`counter` = 'bounced_soft'), sum(f.`counter` = 'complained')
FROM `facts` f JOIN `dims` d ON d.`email_id` = f.`email_id`
GROUP BY d.`account_id`, d.`dim`, f.`at` / 86400000
ON CONFLICT (`account_id`, `dim`, `day`) DO UPDATE SET `bounced_hard` = `bounced_hard` + excluded.`bounced_hard`, `bounced_soft` = `bounced_soft` + excluded.`bounced_soft`, `complained` = `complained` + excluded.`complained`;
