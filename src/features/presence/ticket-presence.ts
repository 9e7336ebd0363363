import { DurableObject } from "cloudflare:workers";
import { type Heartbeat, PRESENCE_TTL_MS, type Present } from "./presence";

/**
 * Who has one ticket open in the dashboard, and who is writing a reply there (presence.ts names
 * the instances). Everything is in memory: a heartbeat is worth a few seconds, nothing is stored,
 * and an evicted instance starts empty and fills again within one heartbeat.
 */
export class TicketPresence extends DurableObject<Env> {
  private readonly present = new Map<string, Present & { seenAt: number }>();

  /** Records a heartbeat and answers the others present, by name; `now` is the request's time. */
  heartbeat(beat: Heartbeat, now: number): Present[] {
    for (const [userId, entry] of this.present) {
      if (now - entry.seenAt > PRESENCE_TTL_MS) this.present.delete(userId);
    }
    if (beat.state === "gone") this.present.delete(beat.userId);
    else this.present.set(beat.userId, { name: beat.name, state: beat.state, seenAt: now });
    return [...this.present]
      .filter(([userId]) => userId !== beat.userId)
      .map(([, { name, state }]) => ({ name, state }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }
}
