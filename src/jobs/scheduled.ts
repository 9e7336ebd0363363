import { createDb } from "../db/client";
import { directoryDb } from "../db/directory/client";
import { movesInProgress } from "../db/directory/workspace-moves";
import { homedIn } from "../db/directory/workspaces";
import { createLogsDb } from "../db/logs/client";
import { everyShard } from "../db/shards";
import { archiveDueEmails } from "../features/email-archives/archive-emails";
import { expireArchives, sweepDeadClaims } from "../features/email-archives/archive-upkeep";
import { retentionsIn } from "../features/request-logs/log-writes.repo";
import { sweepSla } from "../features/sla/sla-sweep";
import { wakeDueSnoozes } from "../features/tickets/snooze-wake";
import { AppError } from "../lib/errors";
import { describeError, log } from "../lib/logger";
import { emailLauncherOf, sweepEmailWebhooks } from "../webhooks/email-delivery";
import { pruneAutomationHistory } from "./prune-automation-history";
import { pruneBounces } from "./prune-bounces";
import { pruneEmailWebhooks, pruneEmailWebhooksPastRetention } from "./prune-email-webhooks";
import { pruneEvents } from "./prune-events";
import { pruneIdempotencyKeys } from "./prune-idempotency-keys";
import { pruneInboundRecords } from "./prune-inbound-records";
import { pruneInvitationCounts } from "./prune-invitation-counts";
import { pruneRequestLogs } from "./prune-request-logs";
import { pruneExpiredNames, pruneSignIns } from "./prune-sign-ins";
import { pruneSmtpLogs } from "./prune-smtp-logs";
import { publishDueChangelog } from "./publish-changelog";
import { CRON } from "./schedules";
import { sweepCampaigns } from "./sweep-campaigns";
import { sweepEmails } from "./sweep-emails";
import { sweepEvents } from "./sweep-events";

/**
 * The minute's sweeps and prunes of one shard: every query runs in that shard alone, over the
 * workspaces it holds.
 */
async function everyMinuteIn(shard: string, env: Env, time: number, ctx: ExecutionContext) {
  const db = createDb(env.DB);
  const logged = (event: string, fields: Record<string, unknown>) => log.info(event, { shard, ...fields });
  const swept = await sweepEmails(db, env.EMAIL_QUEUE, time);
  if (swept > 0) logged("emails.swept", { count: swept });
  const campaigns = await sweepCampaigns(db, env.EMAIL_QUEUE, time);
  if (campaigns.started > 0 || campaigns.resumed > 0) logged("campaigns.swept", campaigns);
  const smtpDeleted = await pruneSmtpLogs(db, time);
  if (smtpDeleted > 0) logged("smtp_logs.pruned", { deleted: smtpDeleted });
  const inboundDeleted = await pruneInboundRecords(db, env.FILES, time);
  if (inboundDeleted > 0) logged("inbound_records.pruned", { deleted: inboundDeleted });
  const homedHere = (ids: string[]) => homedIn(directoryDb(env), shard, ids, time);
  const archived = await archiveDueEmails(db, env.FILES, time, homedHere);
  if (archived.parts > 0) logged("emails.archived", { ...archived });
  const deadClaims = await sweepDeadClaims(db, env.FILES, time);
  if (deadClaims > 0) logged("email_archives.dead_claims_swept", { count: deadClaims });
  const expired = await expireArchives(db, env.FILES, time);
  if (expired > 0) logged("email_archives.expired", { parts: expired });
  const signIns = await pruneSignIns(db, time);
  if (signIns > 0) logged("sign_ins.pruned", { deleted: signIns });
  const enrollments = await pruneAutomationHistory(db, time);
  if (enrollments > 0) logged("automation_history.pruned", { deleted: enrollments });
  const bounces = await pruneBounces(db, time);
  if (bounces > 0) logged("bounces.pruned", { deleted: bounces });
  const idempotencyKeys = await pruneIdempotencyKeys(db, time);
  if (idempotencyKeys > 0) logged("idempotency_keys.pruned", { deleted: idempotencyKeys });
  const invitationCounts = await pruneInvitationCounts(db, time);
  if (invitationCounts > 0) logged("invitation_counts.pruned", { deleted: invitationCounts });
  // Pruning first: an event the sweep is about to dispatch stays for the next run to judge.
  const prunedEvents = await pruneEvents(db, time);
  if (prunedEvents > 0) logged("events.pruned", { deleted: prunedEvents });
  const sla = await sweepSla(db, env, time);
  if (sla > 0) logged("sla.swept", { events: sla });
  const published = await publishDueChangelog(db, time);
  if (published > 0) logged("changelog.published", { count: published });
  const woken = await wakeDueSnoozes(db, env, time);
  if (woken > 0) logged("snoozes.woken", { count: woken });
  const events = await sweepEvents(db, env, time, ctx);
  if (events.swept > 0 || events.lost > 0) logged("events.swept", { swept: events.swept, lost: events.lost });
  const prunedEmailEvents =
    (await pruneEmailWebhooks(db, time)) + (await pruneEmailWebhooksPastRetention(db, time));
  if (prunedEmailEvents > 0) logged("email_webhooks.pruned", { deleted: prunedEmailEvents });
  const fallback = (attempt: Promise<void>) => ctx.waitUntil(attempt);
  const emailEvents = await sweepEmailWebhooks(db, env, time, emailLauncherOf(ctx), fallback);
  if (emailEvents > 0) logged("email_webhooks.swept", { attempts: emailEvents });
}

/**
 * The shards a move is copying from or to, its freeze still running: their minute's sweeps and
 * prunes wait (at most the freeze: a minute past the move's last step). They write to rows of every
 * workspace the shard holds, the one being copied included, and a write there during the copy would
 * be lost or make the check before the switch fail; a sweep that is late by the move's length does
 * its work at its next run. The directory unreachable holds nothing (no move can run then either).
 */
async function shardsHeldByMoves(env: Env, time: number): Promise<Set<string>> {
  const moves = await movesInProgress(directoryDb(env)).catch(() => []);
  return new Set(
    moves.filter((move) => (move.frozenUntil ?? 0) > time).flatMap((move) => [move.fromShard, move.toShard]),
  );
}

export async function handleScheduled(
  controller: ScheduledController,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  switch (controller.cron) {
    case CRON.everyMinute: {
      const time = controller.scheduledTime;
      const shards = everyShard(env);
      // Shard by shard, each on its own: one that fails (unreachable) holds up no other's sweeps.
      const failures: unknown[] = [];
      const held = await shardsHeldByMoves(env, time);
      for (const { shard, env: scoped } of shards) {
        if (held.has(shard)) {
          log.info("cron.shard_held", { shard, reason: "a workspace is being moved from or to it" });
          continue;
        }
        await everyMinuteIn(shard, scoped, time, ctx).catch((error: unknown) => {
          log.error("cron.shard_failed", { shard, ...describeError(error) });
          failures.push(error);
        });
      }
      // LOGS may be down (being replaced) without holding up the jobs after this one.
      const retentions = retentionsIn(shards.map((s) => createDb(s.env.DB)));
      const deleted = await pruneRequestLogs(retentions, createLogsDb(env.LOGS), time).catch(
        (error: unknown) => {
          log.error("request_logs.prune_failed", describeError(error));
          return 0;
        },
      );
      if (deleted > 0) log.info("request_logs.pruned", { deleted });
      // Like LOGS, the directory failing here holds up none of the jobs before it.
      const names = await pruneExpiredNames(directoryDb(env), time).catch((error: unknown) => {
        log.error("directory.prune_failed", describeError(error));
        return 0;
      });
      if (names > 0) log.info("directory.names_pruned", { deleted: names });
      if (failures.length > 0) throw failures[0];
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
