/**
 * An exact sliding log over the last `windowMs`: it admits a request only when fewer than `limit`
 * requests were admitted in the preceding window, so no rolling window ever holds more than
 * `limit`. It keeps one timestamp per request actually admitted in the window (memory follows the
 * traffic, not the limit, so a generous override costs nothing until it is used).
 */
export interface WindowDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a slot frees up (0 when the window is empty). */
  resetSeconds: number;
}

/** Expired entries are dropped from the front in bulk once this many have piled up. */
const COMPACT_AFTER = 1024;

export class RollingWindow {
  private times: number[] = [];
  private head = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  private get count() {
    return this.times.length - this.head;
  }

  tryAdmit(now: number): WindowDecision {
    this.expire(now);
    const admitted = this.count < this.limit;
    if (admitted) this.times.push(now);
    return {
      admitted,
      limit: this.limit,
      remaining: this.limit - this.count,
      resetSeconds: this.secondsUntilSlotFrees(now),
    };
  }

  /** Keeps the most recent admissions in a window of another size (after a plan change). */
  resizedTo(limit: number, now: number): RollingWindow {
    this.expire(now);
    const next = new RollingWindow(limit, this.windowMs);
    next.times = this.times.slice(Math.max(this.head, this.times.length - limit));
    return next;
  }

  private expire(now: number): void {
    while (this.head < this.times.length && (this.times[this.head] ?? 0) <= now - this.windowMs) this.head++;
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }

  private secondsUntilSlotFrees(now: number): number {
    if (this.count === 0) return 0;
    const oldest = this.times[this.head] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
