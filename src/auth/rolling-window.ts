/**
 * An exact sliding log over the last `windowMs`: it admits a request only when fewer than `limit`
 * requests were admitted in the preceding window, so no rolling window ever holds more than
 * `limit`. Memory is one slot per allowed request (6,000 numbers at most).
 */
export interface WindowDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a slot frees up (0 when the window is empty). */
  resetSeconds: number;
}

export class RollingWindow {
  private readonly slots: Float64Array;
  private head = 0;
  private count = 0;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {
    this.slots = new Float64Array(Math.max(1, limit));
  }

  tryAdmit(now: number): WindowDecision {
    this.expire(now);
    const admitted = this.count < this.limit;
    if (admitted) {
      this.slots[(this.head + this.count) % this.slots.length] = now;
      this.count++;
    }
    return {
      admitted,
      limit: this.limit,
      remaining: this.limit - this.count,
      resetSeconds: this.secondsUntilSlotFrees(now),
    };
  }

  /** Copies the most recent admissions into a window of another size (after a plan change). */
  resizedTo(limit: number, now: number): RollingWindow {
    this.expire(now);
    const next = new RollingWindow(limit, this.windowMs);
    const keep = Math.min(this.count, limit);
    for (let i = this.count - keep; i < this.count; i++) {
      next.slots[next.count++] = this.slots[(this.head + i) % this.slots.length] ?? now;
    }
    return next;
  }

  private expire(now: number): void {
    while (this.count > 0 && (this.slots[this.head] ?? 0) <= now - this.windowMs) {
      this.head = (this.head + 1) % this.slots.length;
      this.count--;
    }
  }

  private secondsUntilSlotFrees(now: number): number {
    if (this.count === 0) return 0;
    const oldest = this.slots[this.head] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
