ALTER TABLE `messages` ADD `html_text` text;
-- No backfill: HTML cannot be made text in SQL. Rows written before this keep html_text NULL, and
-- the pages convert their body_html when shown (linear in its length since this change).
