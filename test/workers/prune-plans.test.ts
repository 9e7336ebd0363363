import { env } from "cloudflare:workers";
import { describe, it } from "vitest";
import { expiredRequestLogsDelete } from "../../src/features/request-logs/log-retention.repo";
import { expiredSmtpLogsDelete } from "../../src/features/smtp-logs/smtp-logs.repo";
import { deleteExpiredEvents } from "../../src/jobs/prune-events";
import { planOf } from "./query-plan";
import { expectRangePerWorkspace } from "./retention-helpers";

/**
 * The prunes by each workspace's own retention read only what they delete: the workspaces one by
 * one, each one's expired rows a range of its index. Walking the whole table (or index) and looking
 * each row's workspace up instead reads every kept row every minute.
 */
describe("the retention prunes walk each workspace's expired range", () => {
  it("events", async () => {
    expectRangePerWorkspace(
      await planOf(deleteExpiredEvents(Date.now(), 5_000)),
      "events_account_created",
      "account_id=? AND created_at<?",
    );
  });

  it("SMTP logs", async () => {
    expectRangePerWorkspace(
      await planOf(expiredSmtpLogsDelete(Date.now(), 5_000)),
      "smtp_logs_account_created",
      "account_id=? AND created_at<?",
    );
  });

  it("request logs, in LOGS", async () => {
    expectRangePerWorkspace(
      await planOf(expiredRequestLogsDelete(Date.now(), 5_000), env.LOGS),
      "request_logs_account_created",
      "account=? AND created_at<?",
    );
  });
});
