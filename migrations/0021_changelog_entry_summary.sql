ALTER TABLE `changelog_entries` ADD `summary_text` text;--> statement-breakpoint
-- Hand-written backfill: an entry written before this migration gets the summary its size calls for
-- (see src/features/changelog/changelog.summary.ts): the size is body_html as the feed escapes it
-- (&, <, >, " and ' grow), over 10,000 bytes; the summary is the opening of the Markdown source,
-- the nearest plain text SQL can take.
UPDATE `changelog_entries` SET `summary_text` = substr(`body_markdown`, 1, 300) || '…'
WHERE length(CAST(replace(replace(replace(replace(replace(`body_html`, '&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&apos;') AS BLOB)) > 10000;
