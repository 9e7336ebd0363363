import { createDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/logger";
import { pruneRequestLogs } from "./prune-request-logs";
import { CRON } from "./schedules";
import { sweepEmails } from "./sweep-emails";

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  switch (controller.cron) {
    case CRON.everyMinute: {
      const db = createDb(env.DB);
      const swept = await sweepEmails(db, env.EMAIL_QUEUE, controller.scheduledTime);
      if (swept > 0) log.info("emails.swept", { count: swept });
      const deleted = await pruneRequestLogs(db, controller.scheduledTime);
      if (deleted > 0) log.info("request_logs.pruned", { deleted });
      return;
    }
    default:
      throw new AppError(
        500,
        "unknown_cron",
        "Unknown cron",
        `No job is scheduled for "${controller.cron}".`,
      );
  }
}
