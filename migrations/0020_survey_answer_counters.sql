-- Hand-written (issue 24, item 9): a survey's counters follow its survey_responses rows through
-- triggers, inside the very statement that inserts, re-rates or deletes a response, so concurrent
-- answers need no read-then-write and the summary always equals a recount of the rows.
-- Backfill first: recount every survey once from its rows, so the triggers start from exact values.
UPDATE surveys SET
  responses_count = (SELECT count(*) FROM survey_responses r WHERE r.survey_id = surveys.id),
  rating_sum = (SELECT coalesce(sum(r.rating), 0) FROM survey_responses r WHERE r.survey_id = surveys.id),
  promoters_count = (SELECT count(*) FROM survey_responses r WHERE r.survey_id = surveys.id AND surveys.kind = 'nps' AND r.rating >= 9),
  detractors_count = (SELECT count(*) FROM survey_responses r WHERE r.survey_id = surveys.id AND surveys.kind = 'nps' AND r.rating <= 6);
--> statement-breakpoint
-- Hand-written trigger: a first answer counts once. NPS: 9–10 promote, 0–6 detract.
CREATE TRIGGER survey_responses_counters_insert AFTER INSERT ON survey_responses
BEGIN
  UPDATE surveys SET
    responses_count = responses_count + 1,
    rating_sum = rating_sum + NEW.rating,
    promoters_count = promoters_count + (kind = 'nps' AND NEW.rating >= 9),
    detractors_count = detractors_count + (kind = 'nps' AND NEW.rating <= 6)
  WHERE id = NEW.survey_id AND account_id = NEW.account_id;
END;
--> statement-breakpoint
-- Hand-written trigger: an edit moves the counters from the old rating to the new one.
CREATE TRIGGER survey_responses_counters_rating AFTER UPDATE OF rating ON survey_responses
WHEN OLD.rating <> NEW.rating
BEGIN
  UPDATE surveys SET
    rating_sum = rating_sum + NEW.rating - OLD.rating,
    promoters_count = promoters_count + (kind = 'nps' AND NEW.rating >= 9) - (kind = 'nps' AND OLD.rating >= 9),
    detractors_count = detractors_count + (kind = 'nps' AND NEW.rating <= 6) - (kind = 'nps' AND OLD.rating <= 6)
  WHERE id = NEW.survey_id AND account_id = NEW.account_id;
END;
--> statement-breakpoint
-- Hand-written trigger: a response deleted (the survey's own cascade included) stops counting.
CREATE TRIGGER survey_responses_counters_delete AFTER DELETE ON survey_responses
BEGIN
  UPDATE surveys SET
    responses_count = responses_count - 1,
    rating_sum = rating_sum - OLD.rating,
    promoters_count = promoters_count - (kind = 'nps' AND OLD.rating >= 9),
    detractors_count = detractors_count - (kind = 'nps' AND OLD.rating <= 6)
  WHERE id = OLD.survey_id AND account_id = OLD.account_id;
END;
