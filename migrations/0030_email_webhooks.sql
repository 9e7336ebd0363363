CREATE TABLE `email_webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`outbox_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`outbox_id`) REFERENCES `email_webhook_outbox`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_webhook_attempts_endpoint` ON `email_webhook_attempts` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE INDEX `email_webhook_attempts_outbox` ON `email_webhook_attempts` (`outbox_id`);--> statement-breakpoint
CREATE TABLE `email_webhook_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event` text NOT NULL,
	`body` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `email_webhook_outbox_due` ON `email_webhook_outbox` (`state`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `email_webhook_outbox_event` ON `email_webhook_outbox` (`event_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`enabled` integer NOT NULL,
	`secret` text NOT NULL,
	`disabled_reason` text,
	`failing_since` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_account_created` ON `webhook_endpoints` (`account_id`,`created_at`,`id`);