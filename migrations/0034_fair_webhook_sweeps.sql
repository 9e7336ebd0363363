DROP INDEX `events_undispatched`;--> statement-breakpoint
CREATE INDEX `events_undispatched_by_account` ON `events` (`account_id`,`created_at`) WHERE dispatched_at IS NULL;--> statement-breakpoint
CREATE INDEX `email_webhook_outbox_open_by_endpoint` ON `email_webhook_outbox` (`endpoint_id`,`next_attempt_at`) WHERE next_attempt_at IS NOT NULL;