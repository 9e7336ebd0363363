import { type Db, runBatch, type Statement } from "../../db/client";
import type { DispatchEnv } from "../../webhooks/dispatch";
import { announceEmailEventsSince } from "./announce";
import { eventIdMark, eventsWrittenSince, wroteEvents } from "./fact-events";

/** Starts delivering the email events written since a mark (announce.ts), once their batch committed. */
export type AnnounceSince = (mark: string) => void;

/** Announcing through the invocation's own context, which carries `exports` (the WebhookSender). */
export const announcerOf =
  (env: DispatchEnv & { DB: D1Database }, execution: ExecutionContext): AnnounceSince =>
  (mark) =>
    announceEmailEventsSince(env.DB, env, mark, execution);

/**
 * Runs a fact's statements as one batch and, when they wrote email events, announces them at once
 * instead of leaving them to the minute sweep. A probe at the batch's end tells (`eventsWrittenSince`),
 * so a fact that told no endpoint costs no round trip more. The statements are built after the mark
 * is taken: their event ids carry the time they are built at, and must not sort before the mark.
 * Answers the statements' own results.
 */
export async function runBatchAnnouncing(
  db: Db,
  build: () => Statement[],
  announce: AnnounceSince | undefined,
): Promise<D1Result[]> {
  if (!announce) return runBatch(db, build());
  const mark = eventIdMark();
  const results = await runBatch(db, [...build(), eventsWrittenSince(mark)]);
  if (wroteEvents(results)) announce(mark);
  return results.slice(0, -1);
}
