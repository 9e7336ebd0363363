import { createDb } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { createLogsDb } from "../db/logs/client";
import { AppError } from "../lib/errors";
import { describeError, log } from "../lib/logger";
import { emailLauncherOf, sweepEmailWebhooks } from "../webhooks/email-delivery";
import { pruneEmailWebhooks } from "./prune-email-webhooks";
import { pruneEvents } from "./prune-events";
import { pruneInboundRecords } from "./prune-inbound-records";
import { pruneRequestLogs } from "./prune-request-logs";
import { pruneSignIns } from "./prune-sign-ins";
import { pruneSmtpLogs } from "./prune-smtp-logs";
import { publishDueChangelog } from "./publish-changelog";
import { CRON } from "./schedules";
import { sweepCampaigns } from "./sweep-campaigns";
import { sweepEmails } from "./sweep-emails";
import { sweepEvents } from "./sweep-events";

export async function handleScheduled(
  controller: ScheduledController,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  switch (controller.cron) {
    case CRON.everyMinute: {
      const db = createDb(env.DB);
      const swept = await sweepEmails(db, env.EMAIL_QUEUE, controller.scheduledTime);
      if (swept > 0) log.info("emails.swept", { count: swept });
      const campaigns = await sweepCampaigns(db, env.EMAIL_QUEUE, controller.scheduledTime);
      if (campaigns.started > 0 || campaigns.resumed > 0) log.info("campaigns.swept", campaigns);
      // LOGS may be down (being replaced) without holding up the jobs after this one.
      const deleted = await pruneRequestLogs(db, createLogsDb(env.LOGS), controller.scheduledTime).catch(
        (error: unknown) => {
          log.error("request_logs.prune_failed", describeError(error));
          return 0;
        },
      );
      if (deleted > 0) log.info("request_logs.pruned", { deleted });
      const smtpDeleted = await pruneSmtpLogs(db, controller.scheduledTime);
      if (smtpDeleted > 0) log.info("smtp_logs.pruned", { deleted: smtpDeleted });
      const inboundDeleted = await pruneInboundRecords(db, env.FILES, controller.scheduledTime);
      if (inboundDeleted > 0) log.info("inbound_records.pruned", { deleted: inboundDeleted });
      // Like LOGS, the directory failing here holds up none of the jobs after this one.
      const signIns = await pruneSignIns(db, directoryDb(env), controller.scheduledTime).catch(
        (error: unknown) => {
          log.error("sign_ins.prune_failed", describeError(error));
          return { rows: 0, names: 0 };
        },
      );
      if (signIns.rows > 0 || signIns.names > 0) log.info("sign_ins.pruned", signIns);
      // Pruning first: an event the sweep is about to dispatch stays for the next run to judge.
      const prunedEvents = await pruneEvents(db, controller.scheduledTime);
      if (prunedEvents > 0) log.info("events.pruned", { deleted: prunedEvents });
      const published = await publishDueChangelog(db, controller.scheduledTime);
      if (published > 0) log.info("changelog.published", { count: published });
      const events = await sweepEvents(db, env, controller.scheduledTime, ctx);
      if (events.swept > 0 || events.lost > 0)
        log.info("events.swept", { swept: events.swept, lost: events.lost });
      const prunedEmailEvents = await pruneEmailWebhooks(db, controller.scheduledTime);
      if (prunedEmailEvents > 0) log.info("email_webhooks.pruned", { deleted: prunedEmailEvents });
      const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
      const emailEvents = await sweepEmailWebhooks(
        db,
        env,
        controller.scheduledTime,
        emailLauncherOf(ctx),
        fallback,
      );
      if (emailEvents > 0) log.info("email_webhooks.swept", { attempts: emailEvents });
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
