CREATE TABLE `campaign_recipients` (
	`campaign_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`account_id` text NOT NULL,
	`email` text NOT NULL,
	`state` text DEFAULT 'pending' NOT NULL,
	`email_id` text,
	`detail` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`campaign_id`, `customer_id`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaign_recipients_campaign_state` ON `campaign_recipients` (`campaign_id`,`state`,`customer_id`);--> statement-breakpoint
CREATE INDEX `campaign_recipients_customer` ON `campaign_recipients` (`customer_id`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`from` text NOT NULL,
	`reply_to` text,
	`subject` text NOT NULL,
	`html` text,
	`text` text,
	`contact_group_ids` text DEFAULT '[]' NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`paused_reason` text,
	`scheduled_at` integer,
	`started_at` integer,
	`sent_at` integer,
	`recipients_count` integer DEFAULT 0 NOT NULL,
	`sent_count` integer DEFAULT 0 NOT NULL,
	`suppressed_count` integer DEFAULT 0 NOT NULL,
	`failed_count` integer DEFAULT 0 NOT NULL,
	`opened_count` integer DEFAULT 0 NOT NULL,
	`clicked_count` integer DEFAULT 0 NOT NULL,
	`unsubscribed_count` integer DEFAULT 0 NOT NULL,
	`bounced_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `campaigns_account_created` ON `campaigns` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `campaigns_status_scheduled` ON `campaigns` (`status`,`scheduled_at`);--> statement-breakpoint
ALTER TABLE `emails` ADD `campaign_id` text;