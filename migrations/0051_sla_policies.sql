CREATE TABLE `sla_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`targets` text NOT NULL,
	`hours` text NOT NULL,
	`pause_statuses` text NOT NULL,
	`warning_before` integer NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sla_policies_account_created` ON `sla_policies` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `sla_policy_inboxes` (
	`inbox_id` text PRIMARY KEY NOT NULL,
	`policy_id` text NOT NULL,
	`account_id` text NOT NULL,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`policy_id`) REFERENCES `sla_policies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sla_policy_inboxes_policy` ON `sla_policy_inboxes` (`policy_id`);--> statement-breakpoint
ALTER TABLE `tickets` ADD `sla` text;--> statement-breakpoint
ALTER TABLE `tickets` ADD `sla_due_at` integer;--> statement-breakpoint
ALTER TABLE `tickets` ADD `sla_breached` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tickets` ADD `sla_next_at` integer;--> statement-breakpoint
CREATE INDEX `tickets_account_sla_breached_created` ON `tickets` (`account_id`,`sla_breached`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_sla_due` ON `tickets` (`account_id`,`sla_due_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_sla_next` ON `tickets` (`sla_next_at`) WHERE sla_next_at IS NOT NULL;