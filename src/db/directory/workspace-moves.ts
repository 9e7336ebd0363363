import { and, eq, gt, sql } from "drizzle-orm";
import type { DirectoryDb } from "./client";
import { workspaceMoves, workspaces } from "./schema";

export type MoveRow = typeof workspaceMoves.$inferSelect;

/** Starts a move unless one of this workspace exists; answers the workspace's move either way. */
export async function startMove(
  directory: DirectoryDb,
  move: { accountId: string; fromShard: string; toShard: string; frozenUntil: number; cursor: string },
  now: number,
): Promise<MoveRow> {
  await directory
    .insert(workspaceMoves)
    .values({ ...move, step: "freezing", startedAt: now, updatedAt: now })
    .onConflictDoNothing();
  return (await moveOf(directory, move.accountId)) as MoveRow;
}

export async function moveOf(directory: DirectoryDb, accountId: string): Promise<MoveRow | null> {
  const [row] = await directory.select().from(workspaceMoves).where(eq(workspaceMoves.accountId, accountId));
  return row ?? null;
}

/** The moves in progress (few: an operator starts them one by one). */
export const movesInProgress = (directory: DirectoryDb): Promise<MoveRow[]> =>
  directory.select().from(workspaceMoves);

/**
 * Moves the move on from `step`, only if it is still there (a second command running at once
 * finds it gone) and, with `whileFrozen`, only if its freeze has not run out: a freeze that ran out
 * is over, and the workspace was writable on its shard since. Answers whether it moved on.
 */
export async function advanceMove(
  directory: DirectoryDb,
  accountId: string,
  step: string,
  change: Partial<Pick<MoveRow, "step" | "cursor" | "frozenUntil" | "sealed">>,
  now: number,
  whileFrozen: boolean,
): Promise<boolean> {
  const rows = await directory
    .update(workspaceMoves)
    .set({ ...change, updatedAt: now })
    .where(
      and(
        eq(workspaceMoves.accountId, accountId),
        eq(workspaceMoves.step, step),
        whileFrozen ? gt(workspaceMoves.frozenUntil, now) : undefined,
      ),
    )
    .returning({ accountId: workspaceMoves.accountId });
  return rows.length === 1;
}

/**
 * The switch: the workspace's shard becomes the move's target and its freeze ends, in one
 * directory transaction, only while the freeze holds (one that ran out leaves it where it was).
 */
export async function switchShard(directory: DirectoryDb, move: MoveRow, now: number): Promise<boolean> {
  const stillFrozen = sql`EXISTS (SELECT 1 FROM workspace_moves WHERE account_id = ${move.accountId}
    AND step = 'sealing' AND frozen_until > ${now})`;
  const [switched] = await directory.batch([
    directory
      .update(workspaces)
      .set({ shard: move.toShard })
      .where(and(eq(workspaces.accountId, move.accountId), eq(workspaces.shard, move.fromShard), stillFrozen))
      .returning({ accountId: workspaces.accountId }),
    directory
      .update(workspaceMoves)
      .set({ step: "switched", frozenUntil: null, cursor: "{}", updatedAt: now })
      .where(
        and(
          eq(workspaceMoves.accountId, move.accountId),
          eq(workspaceMoves.step, "sealing"),
          gt(workspaceMoves.frozenUntil, now),
        ),
      ),
  ]);
  return switched.length === 1;
}

export async function endMove(directory: DirectoryDb, accountId: string): Promise<void> {
  await directory.delete(workspaceMoves).where(eq(workspaceMoves.accountId, accountId));
}
