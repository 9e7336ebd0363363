ALTER TABLE `campaigns` ADD `template_id` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `template_version_id` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `template_variables` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `missing_variables_count` integer DEFAULT 0 NOT NULL;