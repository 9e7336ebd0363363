import type { DirectoryDb } from "../../db/directory/client";
import {
  advanceMove,
  endMove,
  type MoveRow,
  moveOf,
  startMove,
  switchShard,
} from "../../db/directory/workspace-moves";
import { forgetHome, SHARD_CACHE_MS, shardOf } from "../../db/directory/workspaces";
import { shardD1, shardNames } from "../../db/shards";
import { AppError, conflict, notFound } from "../../lib/errors";
import { beginCopy, copyPage, endCopy } from "./copy";
import { removePage } from "./remove";
import { type CheckCursor, checkPage, firstCheck } from "./verify";

/**
 * How long a request, queue batch or Workflow step that read the workspace's shard before the
 * freeze may still write to it: the copy starts only once every isolate's cached shard has
 * expired (SHARD_CACHE_MS) and this much longer. Work that takes longer than this and writes at
 * its end is what the check before the switch (counts and checksums) catches: the move is then
 * rolled back, nothing lost.
 */
export const IN_FLIGHT_MS = 20_000;
/** The freeze lasts this long past each step: a command that stops lets it end by itself. */
export const FREEZE_LEASE_MS = 60_000;

export interface MoveOptions {
  /** How long the move waits for every isolate to see a change (tests: 0, in one isolate). */
  settleMs?: number;
  now?: number;
}

/** What one step did, and where the move stands. */
export interface StepReport {
  account_id: string;
  from_shard: string;
  to_shard: string;
  step: string;
  /** Wait this long before the next step (the freeze settling, the switch being seen). */
  wait_ms: number;
  detail: string;
}

const report = (
  move: Pick<MoveRow, "accountId" | "fromShard" | "toShard">,
  step: string,
  detail: string,
  waitMs = 0,
): StepReport => ({
  account_id: move.accountId,
  from_shard: move.fromShard,
  to_shard: move.toShard,
  step,
  wait_ms: Math.max(0, Math.ceil(waitMs)),
  detail,
});

const FROZEN_STEPS = new Set(["freezing", "wiping", "copying", "verifying", "sealing"]);

/**
 * Starts moving a workspace to `toShard` (freezing its writes), or answers the move already under
 * way to that shard so that re-running the command resumes it.
 */
export async function beginMove(
  directory: DirectoryDb,
  env: { SHARDS?: string },
  accountId: string,
  toShard: string,
  options: MoveOptions = {},
): Promise<StepReport> {
  const now = options.now ?? Date.now();
  if (!shardNames(env).includes(toShard)) {
    throw new AppError(
      400,
      "unknown_shard",
      "Unknown shard",
      `${toShard} is not one of SHARDS (${shardNames(env).join(", ")}).`,
    );
  }
  const existing = await moveOf(directory, accountId);
  if (existing) {
    if (existing.toShard !== toShard)
      throw conflict(
        "move_in_progress",
        "Move in progress",
        `This workspace is being moved to ${existing.toShard}.`,
      );
    return report(existing, existing.step, "resumed: the move was under way");
  }
  const fromShard = await shardOf(directory, accountId, now);
  if (!fromShard) throw notFound("This workspace");
  if (fromShard === toShard)
    throw conflict("already_there", "Already there", `This workspace lives in ${toShard} already.`);
  const settleUntil = now + (options.settleMs ?? SHARD_CACHE_MS + IN_FLIGHT_MS);
  const move = await startMove(
    directory,
    {
      accountId,
      fromShard,
      toShard,
      frozenUntil: now + FREEZE_LEASE_MS,
      cursor: JSON.stringify({ settleUntil }),
    },
    now,
  );
  forgetHome(accountId);
  return report(move, move.step, "frozen: writes are refused (503) until the switch", settleUntil - now);
}

/**
 * Runs one bounded step of the workspace's move and answers where it stands (`done` or `aborted`
 * once it is over). Before the switch the shard being left is the truth: a freeze that ran out
 * (the command stopped) rolls the move back, deleting the copy. After it the target is: the old
 * rows are deleted.
 */
export async function stepMove(
  directory: DirectoryDb,
  env: object,
  accountId: string,
  options: MoveOptions = {},
): Promise<StepReport> {
  const now = options.now ?? Date.now();
  const move = await moveOf(directory, accountId);
  if (!move) throw notFound("A move of this workspace");
  const source = shardD1(env, move.fromShard);
  const target = shardD1(env, move.toShard);
  const cursor = JSON.parse(move.cursor) as Record<string, unknown>;
  const settleMs = options.settleMs ?? SHARD_CACHE_MS + IN_FLIGHT_MS;

  if (FROZEN_STEPS.has(move.step)) {
    const renewed =
      (move.frozenUntil ?? 0) > now &&
      (await advanceMove(directory, accountId, move.step, { frozenUntil: now + FREEZE_LEASE_MS }, now, true));
    if (!renewed) {
      await advanceMove(
        directory,
        accountId,
        move.step,
        { step: "aborting", cursor: JSON.stringify({ from: 0 }) },
        now,
        false,
      );
      return report(
        move,
        "aborting",
        "the freeze ran out: the workspace stays where it was; its copy is being deleted",
      );
    }
  }
  const to = (step: string, next: object, extra: { frozen?: boolean; sealed?: string } = {}) =>
    advanceMove(
      directory,
      accountId,
      move.step,
      { step, cursor: JSON.stringify(next), ...(extra.sealed ? { sealed: extra.sealed } : {}) },
      now,
      extra.frozen ?? FROZEN_STEPS.has(step),
    );

  switch (move.step) {
    case "freezing": {
      const wait = (cursor.settleUntil as number) - now;
      if (wait > 0) return report(move, move.step, "waiting for every isolate to see the freeze", wait);
      await to("wiping", { from: 0 });
      return report(move, "wiping", "deleting whatever an earlier attempt left on the target");
    }
    case "wiping": {
      const next = await removePage(target, accountId, (cursor.from as number) ?? 0);
      if (next !== null) {
        await to("wiping", { from: next });
        return report(move, "wiping", "deleting an earlier attempt's rows on the target");
      }
      await beginCopy(target, accountId, now);
      await to("copying", {});
      return report(move, "copying", "copying");
    }
    case "copying": {
      const page = await copyPage(source, target, accountId, now);
      if (!page.done) return report(move, "copying", `copied ${page.rows} rows of ${page.table}`);
      await to("verifying", firstCheck());
      return report(move, "verifying", "copied every table; checking counts and checksums");
    }
    case "verifying":
      return verify(directory, move, source, target, cursor as unknown as CheckCursor, now, to);
    case "sealing":
      return seal(directory, move, source, target, now, settleMs);
    case "switched": {
      // Again after a crash between the switch and this: the target's workspace becomes active.
      await setStatus(target, accountId, move.sealed ?? "active", "moving");
      const wait = move.updatedAt + settleMs - now;
      if (wait > 0) return report(move, "switched", "waiting until no isolate reads the old shard", wait);
      await to("cleaning", { from: 0 });
      return report(move, "cleaning", "deleting the rows left on the old shard");
    }
    case "cleaning": {
      const next = await removePage(source, accountId, (cursor.from as number) ?? 0);
      if (next !== null) {
        await to("cleaning", { from: next });
        return report(move, "cleaning", "deleting the rows left on the old shard");
      }
      await endCopy(target, accountId);
      await endMove(directory, accountId);
      return report(move, "done", `moved to ${move.toShard}`);
    }
    case "aborting": {
      if (move.sealed) await setStatus(source, accountId, move.sealed, "moving");
      const next = await removePage(target, accountId, (cursor.from as number) ?? 0);
      if (next !== null) {
        await to("aborting", { from: next });
        return report(move, "aborting", "deleting the copy on the target");
      }
      await endCopy(target, accountId);
      await endMove(directory, accountId);
      forgetHome(accountId);
      return report(move, "aborted", `rolled back: the workspace stays on ${move.fromShard}`);
    }
    default:
      throw new Error(`Unknown move step ${move.step}`);
  }
}

type Advance = (
  step: string,
  next: object,
  extra?: { frozen?: boolean; sealed?: string },
) => Promise<boolean>;

async function verify(
  _directory: DirectoryDb,
  move: MoveRow,
  source: D1Database,
  target: D1Database,
  cursor: CheckCursor,
  _now: number,
  to: Advance,
): Promise<StepReport> {
  const outcome = await checkPage(source, target, move.accountId, cursor);
  if (outcome.kind === "checking") {
    await to("verifying", outcome.cursor);
    return report(move, "verifying", "checking counts and checksums");
  }
  if (outcome.kind === "differ") {
    await to("aborting", { from: 0 }, { frozen: false });
    return report(
      move,
      "aborting",
      `${outcome.table} differs (source ${outcome.source.count} rows, target ${outcome.target.count}): rolled back`,
    );
  }
  const status = await source
    .prepare("SELECT status FROM accounts WHERE id = ?1")
    .bind(move.accountId)
    .first<{ status: string }>();
  await to("sealing", {}, { sealed: status?.status ?? "active" });
  return report(move, "sealing", "every table is the same on both shards; switching");
}

/** A workspace's status, changed only from `from` (the changes a move makes are its own). */
const setStatus = (d1: D1Database, accountId: string, status: string, from: string) =>
  d1
    .prepare("UPDATE accounts SET status = ?2 WHERE id = ?1 AND status = ?3")
    .bind(accountId, status, from)
    .run();

/**
 * The switch. The old shard's workspace becomes inert first (`moving`: its sweeps skip it, as a
 * suspended one's), then the directory names the target and ends the freeze in one transaction
 * (only while the freeze holds), then the target's workspace takes the status the old one had.
 */
async function seal(
  directory: DirectoryDb,
  move: MoveRow,
  source: D1Database,
  target: D1Database,
  now: number,
  settleMs: number,
): Promise<StepReport> {
  const sealed = move.sealed ?? "active";
  await setStatus(source, move.accountId, "moving", sealed);
  if (!(await switchShard(directory, move, now))) {
    await setStatus(source, move.accountId, sealed, "moving");
    await advanceMove(
      directory,
      move.accountId,
      "sealing",
      { step: "aborting", cursor: JSON.stringify({ from: 0 }) },
      now,
      false,
    );
    return report(move, "aborting", "the freeze ran out before the switch: rolled back");
  }
  forgetHome(move.accountId);
  await setStatus(target, move.accountId, sealed, "moving");
  return report(move, "switched", `the directory names ${move.toShard}; writes are accepted there`, settleMs);
}
