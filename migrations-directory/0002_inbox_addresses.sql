-- Keyed by its text primary key, as every directory table: WITHOUT ROWID keeps one b-tree (drizzle-kit
-- cannot say it; its snapshot does not need to).
CREATE TABLE `inbox_addresses` (
	`address` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`claimed_at` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `inbox_addresses_inbox_id` ON `inbox_addresses` (`inbox_id`);
