-- Issue 41: every foreign key has an index on its child columns, so deleting a parent (an email
-- webhook endpoint, a connection, an inbox, a customer) searches its child rows instead of reading
-- every workspace's. System mail has no connection, so that index is partial. emails.account_id
-- keeps none on purpose (see test/workers/indexes-foreign-keys.test.ts).
CREATE INDEX `email_webhook_outbox_endpoint` ON `email_webhook_outbox` (`endpoint_id`);--> statement-breakpoint
CREATE INDEX `emails_connection` ON `emails` (`connection_id`) WHERE connection_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `tickets_inbox` ON `tickets` (`inbox_id`);--> statement-breakpoint
CREATE INDEX `tickets_customer` ON `tickets` (`customer_id`);