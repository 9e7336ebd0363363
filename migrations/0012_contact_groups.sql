CREATE TABLE `contact_group_members` (
	`group_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`account_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`group_id`, `customer_id`),
	FOREIGN KEY (`group_id`) REFERENCES `contact_groups`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_group_members_group_created` ON `contact_group_members` (`group_id`,`created_at`,`customer_id`);--> statement-breakpoint
CREATE INDEX `contact_group_members_customer` ON `contact_group_members` (`customer_id`);--> statement-breakpoint
CREATE TABLE `contact_groups` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`description` text,
	`member_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_groups_account_name` ON `contact_groups` (`account_id`,`name_key`);--> statement-breakpoint
CREATE INDEX `contact_groups_account_created` ON `contact_groups` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `unsubscribes` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`campaign_id` text,
	`method` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `unsubscribes_account_created` ON `unsubscribes` (`account_id`,`created_at`,`customer_id`);--> statement-breakpoint
ALTER TABLE `customers` ADD `unsubscribed` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `customers` ADD `unsubscribed_at` integer;--> statement-breakpoint
-- Keeps contact_groups.member_count exact whatever writes memberships: adds (only rows really
-- inserted fire), removals, and the cascades of a customer's or a group's deletion.
CREATE TRIGGER contact_group_members_count_insert AFTER INSERT ON contact_group_members
BEGIN
  UPDATE contact_groups SET member_count = member_count + 1 WHERE id = NEW.group_id;
END;
--> statement-breakpoint
CREATE TRIGGER contact_group_members_count_delete AFTER DELETE ON contact_group_members
BEGIN
  UPDATE contact_groups SET member_count = member_count - 1 WHERE id = OLD.group_id;
END;
