import { createDb } from "../db/client";
import { AppError } from "../lib/errors";
import { log } from "../lib/logger";
import { pruneRequestLogs } from "./prune-request-logs";
import { CRON } from "./schedules";

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  switch (controller.cron) {
    case CRON.everyMinute: {
      const deleted = await pruneRequestLogs(createDb(env.DB), controller.scheduledTime);
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
