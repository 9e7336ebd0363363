CREATE TABLE `support_daily` (
	`account_id` text NOT NULL,
	`dimension` text NOT NULL,
	`dimension_value` text NOT NULL,
	`day` integer NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`resolved` integer DEFAULT 0 NOT NULL,
	`reopened` integer DEFAULT 0 NOT NULL,
	`replies` integer DEFAULT 0 NOT NULL,
	`csat_sum` integer DEFAULT 0 NOT NULL,
	`csat_responses` integer DEFAULT 0 NOT NULL,
	`nps_promoters` integer DEFAULT 0 NOT NULL,
	`nps_passives` integer DEFAULT 0 NOT NULL,
	`nps_detractors` integer DEFAULT 0 NOT NULL,
	`first_response_count` integer DEFAULT 0 NOT NULL,
	`resolution_count` integer DEFAULT 0 NOT NULL,
	`first_response_sketch` text,
	`first_response_sketched` integer DEFAULT 0 NOT NULL,
	`resolution_sketch` text,
	`resolution_sketched` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `dimension`, `dimension_value`, `day`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `support_durations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`day` integer NOT NULL,
	`ticket_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`assignee_id` text,
	`seconds` real NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `support_durations_account_kind_day` ON `support_durations` (`account_id`,`kind`,`day`);--> statement-breakpoint
CREATE INDEX `support_durations_ticket_kind` ON `support_durations` (`ticket_id`,`kind`);
--> statement-breakpoint
-- Hand-written (issue 28): the support report's rollups follow tickets, messages and survey
-- responses through triggers, inside the very statement that writes the fact, so they share its
-- D1 batch, concurrent writers cannot lose an increment, and a retried request that changes
-- nothing (a status already set, a draft already sent) counts nothing. Each fact lands on three
-- rows of its UTC day: the whole workspace, its inbox, and its assignee when it has one.
-- A ticket counts as created on the day it was inserted; one created resolved or closed (an
-- import) is resolved then too, as the backfill counts it.
CREATE TRIGGER support_daily_ticket_created AFTER INSERT ON tickets
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, created, resolved)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, 1, NEW.status IN ('resolved', 'closed')
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET created = created + excluded.created, resolved = resolved + excluded.resolved;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'resolution', ((NEW.created_at) / 86400000) * 86400000, NEW.id, NEW.inbox_id, NEW.assignee_id, 0
  WHERE NEW.status IN ('resolved', 'closed');
END;
--> statement-breakpoint
-- Hand-written trigger: entering resolved or closed from any other status is one resolution
-- (resolved -> closed is not a second one; a merge, which closes the merged ticket while its
-- conversation goes on in the other, is none) and records its resolution time; leaving resolved or
-- closed for a working status (not spam) is a reopen. The day is the change's updated_at.
CREATE TRIGGER support_daily_ticket_status AFTER UPDATE OF status ON tickets
WHEN OLD.status <> NEW.status
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, resolved, reopened)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.updated_at) / 86400000) * 86400000, NEW.status IN ('resolved', 'closed') AND OLD.status NOT IN ('resolved', 'closed') AND NEW.merged_into_id IS NULL, OLD.status IN ('resolved', 'closed') AND NEW.status NOT IN ('resolved', 'closed', 'spam')
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET resolved = resolved + excluded.resolved, reopened = reopened + excluded.reopened;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'resolution', ((NEW.updated_at) / 86400000) * 86400000, NEW.id, NEW.inbox_id, NEW.assignee_id,
    max(NEW.updated_at - NEW.created_at, 0) / 1000.0
  WHERE NEW.status IN ('resolved', 'closed') AND OLD.status NOT IN ('resolved', 'closed') AND NEW.merged_into_id IS NULL;
END;
--> statement-breakpoint
-- Hand-written trigger: a reply counts when it goes out (inserted as a non-draft, or a draft sent).
-- The first reply after the ticket's first customer message records the first-response time, once
-- per ticket (the NOT EXISTS guard; D1 runs writes one at a time, so two replies cannot both pass it).
CREATE TRIGGER support_daily_reply_inserted AFTER INSERT ON messages
WHEN NEW.type = 'reply' AND NEW.is_draft = 0
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, 1
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', t.inbox_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'assignee', t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET replies = replies + excluded.replies;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'first_response', ((NEW.created_at) / 86400000) * 86400000, t.id, t.inbox_id, t.assignee_id,
    max(NEW.created_at - c.first_at, 0) / 1000.0
  FROM tickets t
  JOIN (SELECT min(created_at) AS first_at FROM messages
        WHERE ticket_id = NEW.ticket_id AND type = 'customer') c ON c.first_at IS NOT NULL
  WHERE t.id = NEW.ticket_id AND t.account_id = NEW.account_id AND c.first_at <= NEW.created_at
    AND NOT EXISTS (SELECT 1 FROM support_durations s WHERE s.ticket_id = NEW.ticket_id AND s.kind = 'first_response');
END;
--> statement-breakpoint
CREATE TRIGGER support_daily_draft_sent AFTER UPDATE OF is_draft ON messages
WHEN NEW.type = 'reply' AND OLD.is_draft = 1 AND NEW.is_draft = 0
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.updated_at) / 86400000) * 86400000, 1
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', t.inbox_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'assignee', t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET replies = replies + excluded.replies;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'first_response', ((NEW.updated_at) / 86400000) * 86400000, t.id, t.inbox_id, t.assignee_id,
    max(NEW.updated_at - c.first_at, 0) / 1000.0
  FROM tickets t
  JOIN (SELECT min(created_at) AS first_at FROM messages
        WHERE ticket_id = NEW.ticket_id AND type = 'customer') c ON c.first_at IS NOT NULL
  WHERE t.id = NEW.ticket_id AND t.account_id = NEW.account_id AND c.first_at <= NEW.updated_at
    AND NOT EXISTS (SELECT 1 FROM support_durations s WHERE s.ticket_id = NEW.ticket_id AND s.kind = 'first_response');
END;
--> statement-breakpoint
-- Hand-written trigger: every measured duration moves its day's count, the number the cached
-- sketch is compared with to know it must be rebuilt.
CREATE TRIGGER support_durations_counted AFTER INSERT ON support_durations
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, first_response_count, resolution_count)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.day) / 86400000) * 86400000, NEW.kind = 'first_response', NEW.kind = 'resolution'
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET first_response_count = first_response_count + excluded.first_response_count, resolution_count = resolution_count + excluded.resolution_count;
END;
--> statement-breakpoint
-- Hand-written trigger: a survey answer counts on the day it was first given. CSAT adds its
-- rating and one response; NPS sorts it into promoters (9-10), passives (7-8), detractors (0-6).
CREATE TRIGGER support_daily_survey_answered AFTER INSERT ON survey_responses
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, (s.kind = 'csat') * NEW.rating, (s.kind = 'csat'), (s.kind = 'nps' AND NEW.rating >= 9), (s.kind = 'nps' AND NEW.rating BETWEEN 7 AND 8), (s.kind = 'nps' AND NEW.rating <= 6)
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id) d JOIN surveys s ON s.id = NEW.survey_id
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
END;
--> statement-breakpoint
-- Hand-written trigger: a re-rating (editable for 14 days) moves the answer's day from the old
-- rating to the new one; the response count stays.
CREATE TRIGGER support_daily_survey_rerated AFTER UPDATE OF rating ON survey_responses
WHEN OLD.rating <> NEW.rating
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, (s.kind = 'csat') * NEW.rating - (s.kind = 'csat') * OLD.rating, (s.kind = 'csat') - (s.kind = 'csat'), (s.kind = 'nps' AND NEW.rating >= 9) - (s.kind = 'nps' AND OLD.rating >= 9), (s.kind = 'nps' AND NEW.rating BETWEEN 7 AND 8) - (s.kind = 'nps' AND OLD.rating BETWEEN 7 AND 8), (s.kind = 'nps' AND NEW.rating <= 6) - (s.kind = 'nps' AND OLD.rating <= 6)
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id) d JOIN surveys s ON s.id = NEW.survey_id
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
END;
--> statement-breakpoint
-- Backfill
-- From the rows that exist: tickets by creation day; a resolved or closed ticket once, on its
-- closed_at day (past reopenings left no trace, so reopened starts at 0); replies sent; the first
-- reply after each ticket's first customer message; survey answers. Durations inserted here count
-- themselves through support_durations_counted.
WITH f AS (SELECT account_id, inbox_id, assignee_id, ((created_at) / 86400000) * 86400000 AS day, 1 AS created FROM tickets),
  d AS (SELECT f.account_id, 'all' AS dimension, '' AS value, f.day, f.created FROM f
    UNION ALL SELECT f.account_id, 'inbox', f.inbox_id, f.day, f.created FROM f
    UNION ALL SELECT f.account_id, 'assignee', f.assignee_id, f.day, f.created FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, created)
SELECT account_id, dimension, value, day, sum(created)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET created = created + excluded.created;
--> statement-breakpoint
WITH f AS (SELECT account_id, inbox_id, assignee_id, ((closed_at) / 86400000) * 86400000 AS day, 1 AS resolved FROM tickets WHERE status IN ('resolved', 'closed') AND closed_at IS NOT NULL AND merged_into_id IS NULL),
  d AS (SELECT f.account_id, 'all' AS dimension, '' AS value, f.day, f.resolved FROM f
    UNION ALL SELECT f.account_id, 'inbox', f.inbox_id, f.day, f.resolved FROM f
    UNION ALL SELECT f.account_id, 'assignee', f.assignee_id, f.day, f.resolved FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, resolved)
SELECT account_id, dimension, value, day, sum(resolved)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET resolved = resolved + excluded.resolved;
--> statement-breakpoint
WITH f AS (SELECT m.account_id, t.inbox_id, t.assignee_id, ((m.created_at) / 86400000) * 86400000 AS day, 1 AS replies FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.type = 'reply' AND m.is_draft = 0),
  d AS (SELECT f.account_id, 'all' AS dimension, '' AS value, f.day, f.replies FROM f
    UNION ALL SELECT f.account_id, 'inbox', f.inbox_id, f.day, f.replies FROM f
    UNION ALL SELECT f.account_id, 'assignee', f.assignee_id, f.day, f.replies FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
SELECT account_id, dimension, value, day, sum(replies)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET replies = replies + excluded.replies;
--> statement-breakpoint
WITH f AS (SELECT r.account_id, r.inbox_id, r.assignee_id, ((r.created_at) / 86400000) * 86400000 AS day, (s.kind = 'csat') * r.rating AS csat_sum, (s.kind = 'csat') AS csat_responses, (s.kind = 'nps' AND r.rating >= 9) AS nps_promoters, (s.kind = 'nps' AND r.rating BETWEEN 7 AND 8) AS nps_passives, (s.kind = 'nps' AND r.rating <= 6) AS nps_detractors FROM survey_responses r JOIN surveys s ON s.id = r.survey_id),
  d AS (SELECT f.account_id, 'all' AS dimension, '' AS value, f.day, f.csat_sum, f.csat_responses, f.nps_promoters, f.nps_passives, f.nps_detractors FROM f
    UNION ALL SELECT f.account_id, 'inbox', f.inbox_id, f.day, f.csat_sum, f.csat_responses, f.nps_promoters, f.nps_passives, f.nps_detractors FROM f
    UNION ALL SELECT f.account_id, 'assignee', f.assignee_id, f.day, f.csat_sum, f.csat_responses, f.nps_promoters, f.nps_passives, f.nps_detractors FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
SELECT account_id, dimension, value, day, sum(csat_sum), sum(csat_responses), sum(nps_promoters), sum(nps_passives), sum(nps_detractors)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
--> statement-breakpoint
INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
SELECT account_id, 'resolution', ((closed_at) / 86400000) * 86400000, id, inbox_id, assignee_id, max(closed_at - created_at, 0) / 1000.0
FROM tickets WHERE status IN ('resolved', 'closed') AND closed_at IS NOT NULL AND merged_into_id IS NULL;
--> statement-breakpoint
INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
SELECT t.account_id, 'first_response', ((r.replied_at) / 86400000) * 86400000, t.id, t.inbox_id, t.assignee_id, max(r.replied_at - c.first_at, 0) / 1000.0
FROM tickets t
JOIN (SELECT ticket_id, min(created_at) AS first_at FROM messages WHERE type = 'customer' GROUP BY ticket_id) c ON c.ticket_id = t.id
JOIN (SELECT m.ticket_id, min(m.created_at) AS replied_at FROM messages m
      JOIN (SELECT ticket_id, min(created_at) AS first_at FROM messages WHERE type = 'customer' GROUP BY ticket_id) fc
        ON fc.ticket_id = m.ticket_id AND m.created_at >= fc.first_at
      WHERE m.type = 'reply' AND m.is_draft = 0 GROUP BY m.ticket_id) r ON r.ticket_id = t.id;
