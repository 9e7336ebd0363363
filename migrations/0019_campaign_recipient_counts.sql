CREATE TABLE `campaign_recipient_counts` (
	`campaign_id` text NOT NULL,
	`state` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`campaign_id`, `state`),
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- The counters start exact on a database that already has recipients.
INSERT INTO campaign_recipient_counts (campaign_id, state, count)
SELECT campaign_id, state, count(*) FROM campaign_recipients GROUP BY campaign_id, state;
--> statement-breakpoint
-- Whatever writes recipients (a send's INSERT ... SELECT, the batches and deliveries that move
-- their state, a customer's or a campaign's cascade) goes through these triggers, so the list's
-- total never counts rows.
CREATE TRIGGER campaign_recipients_count_insert AFTER INSERT ON campaign_recipients
BEGIN
  INSERT INTO campaign_recipient_counts (campaign_id, state, count)
  VALUES (NEW.campaign_id, NEW.state, 1)
  ON CONFLICT (campaign_id, state) DO UPDATE SET count = count + 1;
END;
--> statement-breakpoint
CREATE TRIGGER campaign_recipients_count_delete AFTER DELETE ON campaign_recipients
BEGIN
  UPDATE campaign_recipient_counts SET count = count - 1
  WHERE campaign_id = OLD.campaign_id AND state = OLD.state;
END;
--> statement-breakpoint
CREATE TRIGGER campaign_recipients_count_state AFTER UPDATE OF state ON campaign_recipients
WHEN OLD.state IS NOT NEW.state
BEGIN
  UPDATE campaign_recipient_counts SET count = count - 1
  WHERE campaign_id = OLD.campaign_id AND state = OLD.state;
  INSERT INTO campaign_recipient_counts (campaign_id, state, count)
  VALUES (NEW.campaign_id, NEW.state, 1)
  ON CONFLICT (campaign_id, state) DO UPDATE SET count = count + 1;
END;
