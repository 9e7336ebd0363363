CREATE TABLE `automation_enrollments` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`automation_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`current_step` text,
	`next_run_at` integer,
	`trigger_type` text NOT NULL,
	`trigger_data` text DEFAULT '{}' NOT NULL,
	`reentry_guard` text,
	`note` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`automation_id`) REFERENCES `automations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `enrollments_automation_created` ON `automation_enrollments` (`automation_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `enrollments_automation_status_created` ON `automation_enrollments` (`automation_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `enrollments_active_guard` ON `automation_enrollments` (`automation_id`,`reentry_guard`) WHERE status = 'active' AND reentry_guard IS NOT NULL;--> statement-breakpoint
CREATE INDEX `enrollments_status_next_run` ON `automation_enrollments` (`status`,`next_run_at`);--> statement-breakpoint
CREATE TABLE `automations` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'draft' NOT NULL,
	`trigger_type` text NOT NULL,
	`trigger_ref` text,
	`steps` text DEFAULT '[]' NOT NULL,
	`allow_reentry` integer DEFAULT false NOT NULL,
	`secret_encrypted` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `automations_account_created` ON `automations` (`account_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `automations_account_trigger` ON `automations` (`account_id`,`trigger_type`,`trigger_ref`,`status`);--> statement-breakpoint
CREATE TABLE `enrollment_steps` (
	`enrollment_id` text NOT NULL,
	`step_id` text NOT NULL,
	`account_id` text NOT NULL,
	`step_type` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`detail` text,
	`started_at` integer NOT NULL,
	`finished_at` integer,
	PRIMARY KEY(`enrollment_id`, `step_id`),
	FOREIGN KEY (`enrollment_id`) REFERENCES `automation_enrollments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `survey_inboxes` (
	`survey_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`account_id` text NOT NULL,
	PRIMARY KEY(`survey_id`, `inbox_id`),
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_inboxes_account_inbox` ON `survey_inboxes` (`account_id`,`inbox_id`);--> statement-breakpoint
CREATE TABLE `survey_requests` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`survey_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`assignee_id` text,
	`email_id` text,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `survey_requests_survey` ON `survey_requests` (`survey_id`,`sent_at`);--> statement-breakpoint
CREATE TABLE `survey_responses` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`survey_id` text NOT NULL,
	`ticket_id` text NOT NULL,
	`inbox_id` text NOT NULL,
	`customer_id` text NOT NULL,
	`assignee_id` text,
	`rating` integer NOT NULL,
	`comment` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`survey_id`) REFERENCES `surveys`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `survey_responses_ticket` ON `survey_responses` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `survey_responses_survey_created` ON `survey_responses` (`survey_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `survey_responses_survey_rating` ON `survey_responses` (`survey_id`,`rating`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `survey_responses_survey_inbox` ON `survey_responses` (`survey_id`,`inbox_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `surveys` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`question` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`responses_count` integer DEFAULT 0 NOT NULL,
	`rating_sum` integer DEFAULT 0 NOT NULL,
	`promoters_count` integer DEFAULT 0 NOT NULL,
	`detractors_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `surveys_account_created` ON `surveys` (`account_id`,`created_at`,`id`);