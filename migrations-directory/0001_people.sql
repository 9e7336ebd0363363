-- What the dashboard's people flows find before the workspace is known: session, sign-in link and
-- invitation token hashes, and every workspace a person's email belongs to. Text-keyed tables are
-- WITHOUT ROWID, as in 0000 (drizzle-kit cannot say it; its snapshot does not need to).
CREATE TABLE `invitation_hashes` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`expires_at` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `invitation_hashes_expires` ON `invitation_hashes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `member_emails` (
	`email` text NOT NULL,
	`account_id` text NOT NULL,
	PRIMARY KEY(`email`, `account_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `session_hashes` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`expires_at` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `session_hashes_expires` ON `session_hashes` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sign_in_hashes` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`expires_at` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `sign_in_hashes_expires` ON `sign_in_hashes` (`expires_at`);