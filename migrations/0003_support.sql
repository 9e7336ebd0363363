CREATE TABLE `events` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`event` text NOT NULL,
	`data` text NOT NULL,
	`created_at` integer NOT NULL,
	`dispatched_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_account_created` ON `events` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_account_event_created` ON `events` (`account_id`,`event`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_account_inbox_created` ON `events` (`account_id`,`inbox_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `events_undispatched` ON `events` (`dispatched_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text,
	`phone` text,
	`blocked` integer DEFAULT false NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_account_email` ON `customers` (`account_id`,`email`);--> statement-breakpoint
CREATE INDEX `customers_account_created` ON `customers` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `inboxes` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`email_address` text NOT NULL,
	`connection_id` text,
	`status_after_reply` text DEFAULT 'pending' NOT NULL,
	`webhooks` text DEFAULT '[]' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`connection_id`) REFERENCES `connections`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inboxes_email_address` ON `inboxes` (`email_address`);--> statement-breakpoint
CREATE INDEX `inboxes_account_created` ON `inboxes` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `inboxes_connection` ON `inboxes` (`connection_id`);--> statement-breakpoint
CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`color` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_inbox_name` ON `tags` (`inbox_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `tags_account_created` ON `tags` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tags_account_inbox_created` ON `tags` (`account_id`,`inbox_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tags_account_name` ON `tags` (`account_id`,`name_key`);--> statement-breakpoint
CREATE TABLE `message_attachments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`message_id` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`size` integer NOT NULL,
	`key` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `message_attachments_message` ON `message_attachments` (`message_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`type` text NOT NULL,
	`direction` text NOT NULL,
	`author_type` text NOT NULL,
	`author_id` text,
	`from_address` text,
	`to_list` text DEFAULT '[]' NOT NULL,
	`cc_list` text DEFAULT '[]' NOT NULL,
	`subject` text,
	`body_text` text,
	`body_html` text,
	`is_draft` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`email_id` text,
	`email_message_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`sent_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_ticket_created` ON `messages` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_email` ON `messages` (`email_id`);--> statement-breakpoint
CREATE TABLE `ticket_tags` (
	`ticket_id` text NOT NULL,
	`tag_id` text NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`ticket_id`, `tag_id`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_tags_tag` ON `ticket_tags` (`tag_id`,`ticket_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`number` integer NOT NULL,
	`client_id` text NOT NULL,
	`subject` text NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`priority` text DEFAULT 'normal' NOT NULL,
	`shared_uuid` text NOT NULL,
	`metadata` text DEFAULT '{}' NOT NULL,
	`assignee_id` text,
	`message_count` integer DEFAULT 0 NOT NULL,
	`last_message_at` integer,
	`snoozed_until` integer,
	`closed_at` integer,
	`merged_into_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`inbox_id`) REFERENCES `inboxes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_shared_uuid` ON `tickets` (`shared_uuid`);--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_account_number` ON `tickets` (`account_id`,`number`);--> statement-breakpoint
CREATE INDEX `tickets_account_created` ON `tickets` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_updated` ON `tickets` (`account_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_status_created` ON `tickets` (`account_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_priority_created` ON `tickets` (`account_id`,`priority`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_inbox_created` ON `tickets` (`account_id`,`inbox_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_customer_created` ON `tickets` (`account_id`,`customer_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_account_assignee_created` ON `tickets` (`account_id`,`assignee_id`,`created_at`,`id`);