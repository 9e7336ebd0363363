-- Backfill
-- The email report's template dimensions (`p:<template id>`, `v:<template version id>`) built from
-- the emails already sent through a template: 0031's rebuild, for those dimensions and emails only.
-- From this release each fact's own batch moves them (email-rollups.ts). Running it again gives the
-- same rows. Two inserts, as in 0031: D1 takes few terms in a compound SELECT. `suppressed` counts
-- refusals, which leave no row to count again: it is kept as it is.
UPDATE `email_daily` SET `accepted` = 0, `sent` = 0, `delivered` = 0, `bounced_hard` = 0, `bounced_soft` = 0,
  `complained` = 0, `opened` = 0, `clicked` = 0, `failed` = 0
  WHERE (`dim` >= 'p:' AND `dim` < 'p;') OR (`dim` >= 'v:' AND `dim` < 'v;');--> statement-breakpoint
INSERT INTO `email_daily` (`account_id`, `dim`, `day`, `accepted`, `sent`, `delivered`, `bounced_hard`, `bounced_soft`, `complained`, `opened`, `clicked`, `suppressed`, `failed`)
WITH `templated` AS (
  SELECT `id`, `seq`, `account_id`, `template_id`, `template_version_id`, `created_at`, `handoff_attempt`, `sent_at`, `status`,
    `first_opened_at`, `first_clicked_at`
  FROM `emails` WHERE `template_id` IS NOT NULL AND `source` != 'system'
),
`facts` (`email_id`, `counter`, `at`) AS (
  SELECT `id`, 'accepted', `created_at` FROM `templated`
  UNION ALL
  SELECT e.`id`, 'sent', (SELECT min(v.`created_at`) FROM `email_events` v WHERE v.`email_seq` = e.`seq`
      AND v.`type` IN ('sent', 'deferred', 'bounced', 'failed'))
    FROM `templated` e WHERE e.`handoff_attempt` IS NOT NULL
  UNION ALL
  SELECT `id`, 'delivered', `sent_at` FROM `templated` WHERE `sent_at` IS NOT NULL
  UNION ALL
  SELECT e.`id`, 'failed', (SELECT min(v.`created_at`) FROM `email_events` v WHERE v.`email_seq` = e.`seq` AND v.`type` = 'failed')
    FROM `templated` e WHERE e.`status` = 'failed'
),
`dims` (`email_id`, `account_id`, `dim`) AS (
  SELECT `id`, `account_id`, 'p:' || `template_id` FROM `templated`
  UNION ALL
  SELECT `id`, `account_id`, 'v:' || `template_version_id` FROM `templated` WHERE `template_version_id` IS NOT NULL
)
SELECT d.`account_id`, d.`dim`, f.`at` / 86400000,
  sum(f.`counter` = 'accepted'), sum(f.`counter` = 'sent'), sum(f.`counter` = 'delivered'), sum(f.`counter` = 'bounced_hard'), sum(f.`counter` = 'bounced_soft'), sum(f.`counter` = 'complained'), sum(f.`counter` = 'opened'), sum(f.`counter` = 'clicked'), 0, sum(f.`counter` = 'failed')
FROM `facts` f JOIN `dims` d ON d.`email_id` = f.`email_id`
WHERE f.`at` IS NOT NULL
GROUP BY d.`account_id`, d.`dim`, f.`at` / 86400000
ON CONFLICT (`account_id`, `dim`, `day`) DO UPDATE SET `accepted` = `accepted` + excluded.`accepted`, `sent` = `sent` + excluded.`sent`, `delivered` = `delivered` + excluded.`delivered`, `bounced_hard` = `bounced_hard` + excluded.`bounced_hard`, `bounced_soft` = `bounced_soft` + excluded.`bounced_soft`, `complained` = `complained` + excluded.`complained`, `opened` = `opened` + excluded.`opened`, `clicked` = `clicked` + excluded.`clicked`, `failed` = `failed` + excluded.`failed`;--> statement-breakpoint
INSERT INTO `email_daily` (`account_id`, `dim`, `day`, `accepted`, `sent`, `delivered`, `bounced_hard`, `bounced_soft`, `complained`, `opened`, `clicked`, `suppressed`, `failed`)
WITH `templated` AS (
  SELECT `id`, `seq`, `account_id`, `template_id`, `template_version_id`, `created_at`, `handoff_attempt`, `sent_at`, `status`,
    `first_opened_at`, `first_clicked_at`
  FROM `emails` WHERE `template_id` IS NOT NULL AND `source` != 'system'
),
`facts` (`email_id`, `counter`, `at`) AS (
  SELECT b.`email_id`, CASE b.`kind` WHEN 'hard' THEN 'bounced_hard' WHEN 'soft' THEN 'bounced_soft' ELSE 'complained' END, min(b.`created_at`)
    FROM `bounces` b JOIN `templated` e ON e.`id` = b.`email_id` GROUP BY b.`email_id`, b.`kind`
  UNION ALL
  SELECT `id`, 'opened', `first_opened_at` FROM `templated` WHERE `first_opened_at` IS NOT NULL
  UNION ALL
  SELECT `id`, 'clicked', `first_clicked_at` FROM `templated` WHERE `first_clicked_at` IS NOT NULL
),
`dims` (`email_id`, `account_id`, `dim`) AS (
  SELECT `id`, `account_id`, 'p:' || `template_id` FROM `templated`
  UNION ALL
  SELECT `id`, `account_id`, 'v:' || `template_version_id` FROM `templated` WHERE `template_version_id` IS NOT NULL
)
SELECT d.`account_id`, d.`dim`, f.`at` / 86400000,
  sum(f.`counter` = 'accepted'), sum(f.`counter` = 'sent'), sum(f.`counter` = 'delivered'), sum(f.`counter` = 'bounced_hard'), sum(f.`counter` = 'bounced_soft'), sum(f.`counter` = 'complained'), sum(f.`counter` = 'opened'), sum(f.`counter` = 'clicked'), 0, sum(f.`counter` = 'failed')
FROM `facts` f JOIN `dims` d ON d.`email_id` = f.`email_id`
WHERE f.`at` IS NOT NULL
GROUP BY d.`account_id`, d.`dim`, f.`at` / 86400000
ON CONFLICT (`account_id`, `dim`, `day`) DO UPDATE SET `accepted` = `accepted` + excluded.`accepted`, `sent` = `sent` + excluded.`sent`, `delivered` = `delivered` + excluded.`delivered`, `bounced_hard` = `bounced_hard` + excluded.`bounced_hard`, `bounced_soft` = `bounced_soft` + excluded.`bounced_soft`, `complained` = `complained` + excluded.`complained`, `opened` = `opened` + excluded.`opened`, `clicked` = `clicked` + excluded.`clicked`, `failed` = `failed` + excluded.`failed`;
