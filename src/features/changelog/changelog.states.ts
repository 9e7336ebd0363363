import type { ChangelogStatus } from "../../db/schema/changelog";
import { badRequest } from "../../lib/errors";

/** Where an entry stands, or stands after a write. */
export type Publication = { status: ChangelogStatus; publishedAt: number | null };

/**
 * The state moves, documented on POST and PATCH /v1/changelog:
 * - draft ↔ scheduled, draft → published, scheduled → published (at once; the cron does it at `published_at`);
 * - a published entry stays published (its text may change): delete it to take it down, since feed
 *   readers have already copied it;
 * - `scheduled` needs a future `published_at` (a scheduled entry keeps its own unless given);
 * - `published` takes now, or a given time that is not in the future (back-dating an old entry);
 * - a draft has no `published_at`, and giving one for a draft is refused.
 * A creation is a move from a draft that does not exist yet.
 */
export function nextPublication(
  current: Publication | null,
  requested: { status?: ChangelogStatus; publishedAt?: number },
  now: number,
): Publication {
  const from = current?.status ?? "draft";
  const to = requested.status ?? from;
  const given = requested.publishedAt;
  if (from === "published" && to !== "published") {
    throw badRequest(
      "invalid_status_transition",
      "Invalid status change",
      `A published entry stays published; it cannot become ${to}. Delete it to take it down.`,
    );
  }
  if (to === "draft") {
    if (given !== undefined) throw invalidPublishedAt("A draft has no published_at; leave it out.");
    return { status: "draft", publishedAt: null };
  }
  if (to === "scheduled") {
    const at = given ?? (from === "scheduled" ? current?.publishedAt : null);
    if (at == null) throw invalidPublishedAt("A scheduled entry needs published_at, in the future.");
    if (at <= now) throw invalidPublishedAt("published_at must be in the future to schedule an entry.");
    return { status: "scheduled", publishedAt: at };
  }
  if (given !== undefined && given > now) {
    throw invalidPublishedAt(
      "published_at of a published entry cannot be in the future; schedule it instead.",
    );
  }
  const kept = from === "published" ? current?.publishedAt : null;
  return { status: "published", publishedAt: given ?? kept ?? now };
}

const invalidPublishedAt = (detail: string) =>
  badRequest("invalid_published_at", "Invalid published_at", detail);
