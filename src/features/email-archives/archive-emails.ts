import type { Db } from "../../db/client";
import { archivePartKey } from "../../lib/email-retention";
import { describeError, log } from "../../lib/logger";
import { archiveLine, gzipLines, objectsOf } from "./archive-lines";
import { claimPart, commitPart, type DueWorkspace, dueWorkspaces, releasePart } from "./archive-parts.repo";

/** Emails per part: a part's query, lines and object stay a few megabytes at most. */
export const PART_EMAILS = 1_000;
/** Parts per shard and run: 30,000 emails a minute, five times a shard's sustained send rate. */
const MAX_PARTS_PER_RUN = 30;
/** Wall time one shard's run may spend archiving before it leaves the rest to the next minute. */
const RUN_BUDGET_MS = 20_000;

/** Which of the due workspaces live in the shard being run (the others' rows there are not theirs). */
export type HomeCheck = (accountIds: string[]) => Promise<Set<string>>;

export interface ArchiveRun {
  parts: number;
  emails: number;
}

/**
 * One part of a workspace: claim it and read its emails (one transaction), write its object
 * under the claim's own key, delete the emails' objects, then in one transaction mark the part
 * archived and delete the emails. Dying at any step archives nothing twice: before the last
 * transaction the emails are all still there (the dead claim and its object are swept later,
 * DEAD_CLAIM_MS on); after it they are in this part alone. Answers the emails archived.
 */
export async function archiveOnePart(
  db: Db,
  files: R2Bucket,
  ws: DueWorkspace,
  now: number,
): Promise<number> {
  const claimed = await claimPart(db, ws, PART_EMAILS, now);
  if (!claimed) return 0;
  const key = archivePartKey(ws.accountId, claimed.day, claimed.part, claimed.token);
  let etag: string;
  let bytes: number;
  try {
    const body = await gzipLines(claimed.rows.map(archiveLine));
    const object = await files.put(key, body, { httpMetadata: { contentType: "application/gzip" } });
    etag = object.etag;
    bytes = body.byteLength;
  } catch (error) {
    await releasePart(db, ws.accountId, claimed.day, claimed.part, claimed.token).catch(() => undefined);
    throw error;
  }
  // The emails' own objects go before their rows: if this run dies here, the rows go in a later
  // part, and no object is ever left behind without a row to find it by.
  const objects = claimed.rows.flatMap(objectsOf);
  for (let i = 0; i < objects.length; i += 1_000) await files.delete(objects.slice(i, i + 1_000));
  const seqs = claimed.rows.map((row) => row.seq);
  const part = { accountId: ws.accountId, accountSeq: ws.accountSeq, ...claimed, bytes, etag, seqs };
  if (!(await commitPart(db, part, now))) {
    // The claim was swept as dead while this run was slow: its emails stay for another part.
    await files.delete(key);
    return 0;
  }
  return seqs.length;
}

/**
 * The minute's archiving in one shard: a part per due workspace in turn, each workspace again
 * while it has more, within the run's budget. Retention is per workspace and by whole UTC days
 * (lib/email-retention.ts `keptFrom`). A workspace that fails is logged and left for the next run;
 * the others go on. Only workspaces whose home is this shard (`homedHere`) are archived.
 */
export async function archiveDueEmails(
  db: Db,
  files: R2Bucket,
  now: number,
  homedHere: HomeCheck,
): Promise<ArchiveRun> {
  const started = Date.now();
  const run: ArchiveRun = { parts: 0, emails: 0 };
  const withinBudget = () => run.parts < MAX_PARTS_PER_RUN && Date.now() - started < RUN_BUDGET_MS;
  const found = await dueWorkspaces(db, now);
  if (found.length === 0) return run;
  // A moved workspace's old rows, waiting for the move's clean-up, are never archived: their R2
  // objects are the workspace's in its new shard too.
  const home = await homedHere(found.map((ws) => ws.accountId));
  let due = found.filter((ws) => home.has(ws.accountId));
  while (due.length > 0 && withinBudget()) {
    const more: DueWorkspace[] = [];
    for (const ws of due) {
      if (!withinBudget()) break;
      const archived = await archiveOnePart(db, files, ws, now).catch((error: unknown) => {
        log.error("emails.archive_failed", { account_id: ws.accountId, ...describeError(error) });
        return 0;
      });
      if (archived === 0) continue;
      run.parts++;
      run.emails += archived;
      more.push(ws);
    }
    due = more;
  }
  return run;
}
