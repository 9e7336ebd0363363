-- Request logs now live in the LOGS database (migrations-logs/). Rows cannot be copied across
-- databases in SQL: the logs of a local database are not carried over (docs/operations-and-deployment.md).
DROP TABLE `request_logs_counts`;--> statement-breakpoint
DROP TABLE `request_logs`;
