ALTER TABLE `emails` ADD `template_layout_id` text;--> statement-breakpoint
ALTER TABLE `emails` ADD `template_layout_version_id` text;--> statement-breakpoint
ALTER TABLE `template_versions` ADD `layout_id` text;--> statement-breakpoint
CREATE INDEX `template_versions_account_layout` ON `template_versions` (`account_id`,`layout_id`);--> statement-breakpoint
ALTER TABLE `templates` ADD `type` text DEFAULT 'template' NOT NULL;--> statement-breakpoint
CREATE INDEX `templates_account_type` ON `templates` (`account_id`,`type`,`id`);