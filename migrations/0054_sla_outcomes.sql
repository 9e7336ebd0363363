ALTER TABLE `support_daily` ADD `sla_first_response_achieved` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `support_daily` ADD `sla_first_response_breached` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `support_daily` ADD `sla_next_response_achieved` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `support_daily` ADD `sla_next_response_breached` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `support_daily` ADD `sla_resolution_achieved` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `support_daily` ADD `sla_resolution_breached` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Hand-written (issue 45): SLA achievement per target in the support report. The trigger counts
-- each target clock once, in the statement that decides it (a reply or a resolution meeting it, the
-- sweep marking its breach), so concurrent writers cannot double-count or lose one: achieved on
-- the day it was met within its time, breached on the day of the due time it missed (or of its
-- late meeting, when no sweep had marked it). A next-response clock restarted by a customer message
-- is a new clock (another started_at) and counts again. Targets decided as the ticket is inserted
-- (an agent opening a ticket with its reply) are not counted: nobody waited.
CREATE TRIGGER support_daily_sla_outcome AFTER UPDATE OF sla ON tickets
WHEN NEW.sla IS NOT NULL AND NEW.sla IS NOT OLD.sla
BEGIN
  INSERT INTO support_daily (account_id, dimension, dimension_value, day, sla_first_response_achieved, sla_first_response_breached, sla_next_response_achieved, sla_next_response_breached, sla_resolution_achieved, sla_resolution_breached)
  SELECT NEW.account_id, d.dimension, d.value, (o.at / 86400000) * 86400000,
    o.target = 'first_response' AND NOT o.breached, o.target = 'first_response' AND o.breached,
    o.target = 'next_response' AND NOT o.breached, o.target = 'next_response' AND o.breached,
    o.target = 'resolution' AND NOT o.breached, o.target = 'resolution' AND o.breached
  FROM (SELECT c.target, c.breached, CASE WHEN c.breached THEN coalesce(c.breached_for, c.met_at) ELSE c.met_at END AS at
    FROM (
      SELECT tg.value AS target, json_extract(NEW.sla, '$.' || tg.value || '.met_at') AS met_at, json_extract(NEW.sla, '$.' || tg.value || '.breached_for') AS breached_for,
        (json_extract(NEW.sla, '$.' || tg.value || '.breached_for') IS NOT NULL OR json_extract(NEW.sla, '$.' || tg.value || '.met_late') = 1) AS breached,
        json_extract(NEW.sla, '$.' || tg.value || '.started_at') IS NOT NULL AS running,
        (json_extract(OLD.sla, '$.' || tg.value || '.started_at') IS json_extract(NEW.sla, '$.' || tg.value || '.started_at')) AS same, (json_extract(OLD.sla, '$.' || tg.value || '.breached_for') IS NOT NULL OR json_extract(OLD.sla, '$.' || tg.value || '.met_late') = 1) AS was_breached, (json_extract(OLD.sla, '$.' || tg.value || '.met_at') IS NOT NULL) AS was_met
      FROM json_each('["first_response","next_response","resolution"]') tg
    ) c
    WHERE c.running AND CASE WHEN c.breached THEN NOT (c.same AND c.was_breached) ELSE c.met_at IS NOT NULL AND NOT (c.same AND c.was_met) END) o,
  (SELECT 'all' AS dimension, '' AS value UNION ALL SELECT 'inbox', NEW.inbox_id UNION ALL SELECT 'assignee', NEW.assignee_id UNION ALL SELECT 'inbox_assignee', NEW.inbox_id || '/' || NEW.assignee_id) d
  WHERE d.value IS NOT NULL
  ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET sla_first_response_achieved = sla_first_response_achieved + excluded.sla_first_response_achieved, sla_first_response_breached = sla_first_response_breached + excluded.sla_first_response_breached, sla_next_response_achieved = sla_next_response_achieved + excluded.sla_next_response_achieved, sla_next_response_breached = sla_next_response_breached + excluded.sla_next_response_breached, sla_resolution_achieved = sla_resolution_achieved + excluded.sla_resolution_achieved, sla_resolution_breached = sla_resolution_breached + excluded.sla_resolution_breached;
END;
--> statement-breakpoint
-- Backfill: the outcomes already decided on tickets with an SLA, each on its day and slice, from the
-- clocks a ticket keeps (a restarted next-response clock only as its latest one; a
-- target met the moment it started, as the trigger leaves out, is left out here too).
INSERT INTO support_daily (account_id, dimension, dimension_value, day, sla_first_response_achieved, sla_first_response_breached, sla_next_response_achieved, sla_next_response_breached, sla_resolution_achieved, sla_resolution_breached)
SELECT o.account_id, o.dimension, o.value, (o.at / 86400000) * 86400000,
  o.target = 'first_response' AND NOT o.breached, o.target = 'first_response' AND o.breached,
  o.target = 'next_response' AND NOT o.breached, o.target = 'next_response' AND o.breached,
  o.target = 'resolution' AND NOT o.breached, o.target = 'resolution' AND o.breached
FROM (
  SELECT c.account_id, c.dimension, c.value, c.target, c.breached,
    CASE WHEN c.breached THEN coalesce(c.breached_for, c.met_at) WHEN c.met_at > c.started_at THEN c.met_at END AS at
  FROM (
    SELECT t.account_id, json_extract(d.value, '$[0]') AS dimension, json_extract(d.value, '$[1]') AS value,
      tg.value AS target, json_extract(t.sla, '$.' || tg.value || '.started_at') AS started_at, json_extract(t.sla, '$.' || tg.value || '.met_at') AS met_at, json_extract(t.sla, '$.' || tg.value || '.breached_for') AS breached_for,
      (json_extract(t.sla, '$.' || tg.value || '.breached_for') IS NOT NULL OR json_extract(t.sla, '$.' || tg.value || '.met_late') = 1) AS breached
    FROM tickets t
    JOIN json_each('["first_response","next_response","resolution"]') tg
    JOIN json_each(json_array(json_array('all', ''), json_array('inbox', t.inbox_id), json_array('assignee', t.assignee_id), json_array('inbox_assignee', t.inbox_id || '/' || t.assignee_id))) d
    WHERE t.sla IS NOT NULL
  ) c
  WHERE c.started_at IS NOT NULL AND c.value IS NOT NULL
) o
WHERE o.at IS NOT NULL
ON CONFLICT(account_id, dimension, dimension_value, day) DO UPDATE SET sla_first_response_achieved = sla_first_response_achieved + excluded.sla_first_response_achieved, sla_first_response_breached = sla_first_response_breached + excluded.sla_first_response_breached, sla_next_response_achieved = sla_next_response_achieved + excluded.sla_next_response_achieved, sla_next_response_breached = sla_next_response_breached + excluded.sla_next_response_breached, sla_resolution_achieved = sla_resolution_achieved + excluded.sla_resolution_achieved, sla_resolution_breached = sla_resolution_breached + excluded.sla_resolution_breached;
