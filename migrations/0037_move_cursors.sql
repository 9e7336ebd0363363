CREATE TABLE `move_cursors` (
	`account_id` text PRIMARY KEY NOT NULL,
	`pass` integer NOT NULL,
	`after` text,
	`updated_at` integer NOT NULL
);
