CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`url` text NOT NULL,
	`secret` text,
	`status` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer,
	`error` text,
	`created_at` integer NOT NULL,
	`attempted_at` integer,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_attempted` ON `webhook_deliveries` (`status`,`attempted_at`);