-- Keyed by its text primary key, as every directory table: WITHOUT ROWID keeps one b-tree (drizzle-kit
-- cannot say it; its snapshot does not need to).
CREATE TABLE `workspace_moves` (
	`account_id` text PRIMARY KEY NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`step` text NOT NULL,
	`cursor` text DEFAULT '{}' NOT NULL,
	`frozen_until` integer,
	`sealed` text,
	`started_at` integer NOT NULL,
	`updated_at` integer NOT NULL
) WITHOUT ROWID;
