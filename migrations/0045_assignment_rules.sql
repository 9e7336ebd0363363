ALTER TABLE `users` ADD `available` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `capacity` integer;--> statement-breakpoint
ALTER TABLE `inboxes` ADD `assignment_rule` text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE `inboxes` ADD `assignment_cursor` text;