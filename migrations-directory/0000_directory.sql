-- Every table is keyed by its text primary key: WITHOUT ROWID keeps one b-tree a table instead of
-- a rowid table beside the key's index (drizzle-kit cannot say it; its snapshot does not need to).
CREATE TABLE `key_hashes` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `workspaces` (
	`account_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`created_at` integer NOT NULL
) WITHOUT ROWID;
