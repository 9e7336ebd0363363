-- Hand-written (issue 28): the support report filters by an inbox and an assignee together. A
-- fourth slice, `inbox_assignee` valued `inbox_id/assignee_id`, joins the three of 0026: every
-- trigger is recreated as it was, with that slice added (a fact without an assignee has none, as
-- for `assignee`), then the slice is backfilled from the rows as 0026 backfilled the others.
DROP TRIGGER support_daily_ticket_created;--> statement-breakpoint
CREATE TRIGGER support_daily_ticket_created AFTER INSERT ON tickets
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, created, resolved)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, 1, NEW.status IN ('resolved', 'closed')
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET created = created + excluded.created, resolved = resolved + excluded.resolved;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'resolution', ((NEW.created_at) / 86400000) * 86400000, NEW.id, NEW.inbox_id, NEW.assignee_id, 0
  WHERE NEW.status IN ('resolved', 'closed');
END;
--> statement-breakpoint
DROP TRIGGER support_daily_ticket_status;--> statement-breakpoint
CREATE TRIGGER support_daily_ticket_status AFTER UPDATE OF status ON tickets
WHEN OLD.status <> NEW.status
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, resolved, reopened)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.updated_at) / 86400000) * 86400000, NEW.status IN ('resolved', 'closed') AND OLD.status NOT IN ('resolved', 'closed') AND NEW.merged_into_id IS NULL, OLD.status IN ('resolved', 'closed') AND NEW.status NOT IN ('resolved', 'closed', 'spam')
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET resolved = resolved + excluded.resolved, reopened = reopened + excluded.reopened;
  INSERT INTO support_durations (account_id, kind, day, ticket_id, inbox_id, assignee_id, seconds)
  SELECT NEW.account_id, 'resolution', ((NEW.updated_at) / 86400000) * 86400000, NEW.id, NEW.inbox_id, NEW.assignee_id,
    max(NEW.updated_at - NEW.created_at, 0) / 1000.0
  WHERE NEW.status IN ('resolved', 'closed') AND OLD.status NOT IN ('resolved', 'closed') AND NEW.merged_into_id IS NULL;
END;
--> statement-breakpoint
DROP TRIGGER support_daily_reply_inserted;--> statement-breakpoint
CREATE TRIGGER support_daily_reply_inserted AFTER INSERT ON messages
WHEN NEW.type = 'reply' AND NEW.is_draft = 0
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, 1
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', t.inbox_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'assignee', t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'inbox_assignee', t.inbox_id || '/' || t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id) d
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
DROP TRIGGER support_daily_draft_sent;--> statement-breakpoint
CREATE TRIGGER support_daily_draft_sent AFTER UPDATE OF is_draft ON messages
WHEN NEW.type = 'reply' AND OLD.is_draft = 1 AND NEW.is_draft = 0
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.updated_at) / 86400000) * 86400000, 1
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', t.inbox_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'assignee', t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id UNION ALL SELECT 'inbox_assignee', t.inbox_id || '/' || t.assignee_id FROM tickets t WHERE t.id = NEW.ticket_id) d
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
DROP TRIGGER support_durations_counted;--> statement-breakpoint
CREATE TRIGGER support_durations_counted AFTER INSERT ON support_durations
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, first_response_count, resolution_count)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.day) / 86400000) * 86400000, NEW.kind = 'first_response', NEW.kind = 'resolution'
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET first_response_count = first_response_count + excluded.first_response_count, resolution_count = resolution_count + excluded.resolution_count;
END;
--> statement-breakpoint
DROP TRIGGER support_daily_survey_answered;--> statement-breakpoint
CREATE TRIGGER support_daily_survey_answered AFTER INSERT ON survey_responses
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, (s.kind = 'csat') * NEW.rating, (s.kind = 'csat'), (s.kind = 'nps' AND NEW.rating >= 9), (s.kind = 'nps' AND NEW.rating BETWEEN 7 AND 8), (s.kind = 'nps' AND NEW.rating <= 6)
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d JOIN surveys s ON s.id = NEW.survey_id
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
END;
--> statement-breakpoint
DROP TRIGGER support_daily_survey_rerated;--> statement-breakpoint
CREATE TRIGGER support_daily_survey_rerated AFTER UPDATE OF rating ON survey_responses
WHEN OLD.rating <> NEW.rating
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
  SELECT NEW.account_id, d.dimension, d.value, ((NEW.created_at) / 86400000) * 86400000, (s.kind = 'csat') * NEW.rating - (s.kind = 'csat') * OLD.rating, (s.kind = 'csat') - (s.kind = 'csat'), (s.kind = 'nps' AND NEW.rating >= 9) - (s.kind = 'nps' AND OLD.rating >= 9), (s.kind = 'nps' AND NEW.rating BETWEEN 7 AND 8) - (s.kind = 'nps' AND OLD.rating BETWEEN 7 AND 8), (s.kind = 'nps' AND NEW.rating <= 6) - (s.kind = 'nps' AND OLD.rating <= 6)
  FROM (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d JOIN surveys s ON s.id = NEW.survey_id
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
END;
--> statement-breakpoint
-- Backfill
-- The new slice only: tickets created, resolutions, replies and survey answers as 0026 counted
-- them, and the count of durations each day already holds (its sketches are built on first read).
WITH f AS (SELECT account_id, inbox_id, assignee_id, ((created_at) / 86400000) * 86400000 AS day, 1 AS created FROM tickets),
  d AS (SELECT f.account_id, 'inbox_assignee' AS dimension, f.inbox_id || '/' || f.assignee_id AS value, f.day, f.created FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, created)
SELECT account_id, dimension, value, day, sum(created)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET created = created + excluded.created;
--> statement-breakpoint
WITH f AS (SELECT account_id, inbox_id, assignee_id, ((closed_at) / 86400000) * 86400000 AS day, 1 AS resolved FROM tickets WHERE status IN ('resolved', 'closed') AND closed_at IS NOT NULL AND merged_into_id IS NULL),
  d AS (SELECT f.account_id, 'inbox_assignee' AS dimension, f.inbox_id || '/' || f.assignee_id AS value, f.day, f.resolved FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, resolved)
SELECT account_id, dimension, value, day, sum(resolved)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET resolved = resolved + excluded.resolved;
--> statement-breakpoint
WITH f AS (SELECT m.account_id, t.inbox_id, t.assignee_id, ((m.created_at) / 86400000) * 86400000 AS day, 1 AS replies FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.type = 'reply' AND m.is_draft = 0),
  d AS (SELECT f.account_id, 'inbox_assignee' AS dimension, f.inbox_id || '/' || f.assignee_id AS value, f.day, f.replies FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, replies)
SELECT account_id, dimension, value, day, sum(replies)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET replies = replies + excluded.replies;
--> statement-breakpoint
WITH f AS (SELECT r.account_id, r.inbox_id, r.assignee_id, ((r.created_at) / 86400000) * 86400000 AS day, (s.kind = 'csat') * r.rating AS csat_sum, (s.kind = 'csat') AS csat_responses, (s.kind = 'nps' AND r.rating >= 9) AS nps_promoters, (s.kind = 'nps' AND r.rating BETWEEN 7 AND 8) AS nps_passives, (s.kind = 'nps' AND r.rating <= 6) AS nps_detractors FROM survey_responses r JOIN surveys s ON s.id = r.survey_id),
  d AS (SELECT f.account_id, 'inbox_assignee' AS dimension, f.inbox_id || '/' || f.assignee_id AS value, f.day, f.csat_sum, f.csat_responses, f.nps_promoters, f.nps_passives, f.nps_detractors FROM f WHERE f.assignee_id IS NOT NULL)
INSERT INTO support_daily (account_id, dimension, dimension_value, day, csat_sum, csat_responses, nps_promoters, nps_passives, nps_detractors)
SELECT account_id, dimension, value, day, sum(csat_sum), sum(csat_responses), sum(nps_promoters), sum(nps_passives), sum(nps_detractors)
FROM d WHERE true GROUP BY account_id, dimension, value, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET csat_sum = csat_sum + excluded.csat_sum, csat_responses = csat_responses + excluded.csat_responses, nps_promoters = nps_promoters + excluded.nps_promoters, nps_passives = nps_passives + excluded.nps_passives, nps_detractors = nps_detractors + excluded.nps_detractors;
--> statement-breakpoint
INSERT INTO support_daily (account_id, dimension, dimension_value, day, first_response_count, resolution_count)
SELECT account_id, 'inbox_assignee', inbox_id || '/' || assignee_id, day, sum(kind = 'first_response'), sum(kind = 'resolution')
FROM support_durations WHERE assignee_id IS NOT NULL GROUP BY account_id, inbox_id, assignee_id, day
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET first_response_count = first_response_count + excluded.first_response_count, resolution_count = resolution_count + excluded.resolution_count;
