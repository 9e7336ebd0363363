CREATE TABLE `log_agents` (
	`n` integer PRIMARY KEY NOT NULL,
	`user_agent` text NOT NULL,
	`last_used_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `log_agents_user_agent_unique` ON `log_agents` (`user_agent`);--> statement-breakpoint
CREATE INDEX `log_agents_last_used` ON `log_agents` (`last_used_at`);--> statement-breakpoint
ALTER TABLE `request_logs` ADD `agent` integer;--> statement-breakpoint
-- Hand-written: existing logs give their user agents to log_agents and keep the numbers; the next
-- migration drops the text. last_used_at is the newest such log's time, rounded up to the hour as
-- the consumer rounds it.
INSERT INTO log_agents (user_agent, last_used_at)
SELECT user_agent, (max(created_at) / 3600000 + 1) * 3600000 FROM request_logs
WHERE user_agent IS NOT NULL GROUP BY user_agent;
--> statement-breakpoint
UPDATE request_logs SET agent = (SELECT n FROM log_agents WHERE log_agents.user_agent = request_logs.user_agent)
WHERE user_agent IS NOT NULL;
