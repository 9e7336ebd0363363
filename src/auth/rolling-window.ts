/**
 * An exact sliding log over the last `windowMs`: it admits a request only when fewer than `limit`
 * requests were admitted in the preceding window, so no rolling window ever holds more than
 * `limit`. It keeps one timestamp per request actually admitted in the window (memory follows the
 * traffic, not the limit, so a generous override costs nothing until it is used).
 *
 * It can also lend slots ahead (`lease`): the caller spends them itself within `holdMs`. A lent
 * slot may be spent at any moment up to `holdMs` after the loan, so the log counts it as if it were
 * spent at the last such moment: it stays in the log until `holdMs + windowMs` after the loan. That
 * keeps the guarantee (no rolling window holds more than `limit` requests, whenever the slots are
 * spent), at the price of a slot lent and spent at once coming back up to `holdMs` late. Slots
 * returned unspent (`giveBack`) leave the log at once.
 */
export interface WindowDecision {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until a slot frees up (0 when the window is empty). */
  resetSeconds: number;
}

/** A lease's answer: the slot for the request that asked, and `spare` more to spend within the hold. */
export interface LeaseDecision extends WindowDecision {
  spare: number;
  /** Names the spare slots when some are given back; 0 when there are none. */
  leaseId: number;
}

/** Slots lent ahead by one lease, counted until `at` + windowMs. */
interface Held {
  id: number;
  at: number;
  count: number;
}

/** Expired entries are dropped from the front in bulk once this many have piled up. */
const COMPACT_AFTER = 1024;

export class RollingWindow {
  private times: number[] = [];
  private head = 0;
  /** Lent slots, in order of `at` (every lease uses the same hold, so later loans end later). */
  private held: Held[] = [];
  private heldHead = 0;
  private heldCount = 0;
  private nextLeaseId = 1;

  constructor(
    readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  private get count() {
    return this.times.length - this.head + this.heldCount;
  }

  tryAdmit(now: number): WindowDecision {
    const { spare: _, leaseId: __, ...decision } = this.lease(now, 1, 0);
    return decision;
  }

  /**
   * Admits one request now and lends up to `want - 1` more slots to be spent within `holdMs`, as
   * many as the window has free. Refused (nothing lent) when the window is full.
   */
  lease(now: number, want: number, holdMs: number): LeaseDecision {
    this.expire(now);
    const free = this.limit - this.count;
    if (free <= 0) {
      return { admitted: false, spare: 0, leaseId: 0, ...this.state(now) };
    }
    this.times.push(now);
    const spare = Math.max(0, Math.min(want, free) - 1);
    let leaseId = 0;
    if (spare > 0) {
      leaseId = this.nextLeaseId++;
      this.held.push({ id: leaseId, at: now + holdMs, count: spare });
      this.heldCount += spare;
    }
    return { admitted: true, spare, leaseId, ...this.state(now) };
  }

  /** Takes back `count` slots of a lease that were not spent (unknown or expired leases are ignored). */
  giveBack(leaseId: number, count: number): void {
    // Loans are returned soon after they are made, so look from the newest.
    let loan: Held | undefined;
    for (let i = this.held.length - 1; i >= this.heldHead && !loan; i--) {
      if (this.held[i]?.id === leaseId) loan = this.held[i];
    }
    if (!loan) return;
    const returned = Math.min(Math.max(0, count), loan.count);
    loan.count -= returned;
    this.heldCount -= returned;
  }

  /** Keeps the most recent admissions in a window of another size (after a plan change). */
  resizedTo(limit: number, now: number): RollingWindow {
    this.expire(now);
    const next = new RollingWindow(limit, this.windowMs);
    next.held = this.held.slice(this.heldHead);
    next.heldCount = this.heldCount;
    next.nextLeaseId = this.nextLeaseId;
    next.times = this.times.slice(
      Math.max(this.head, this.times.length - Math.max(0, limit - this.heldCount)),
    );
    return next;
  }

  private state(now: number) {
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - this.count),
      resetSeconds: this.secondsUntilSlotFrees(now),
    };
  }

  private expire(now: number): void {
    const cutoff = now - this.windowMs;
    while (this.head < this.times.length && (this.times[this.head] ?? 0) <= cutoff) this.head++;
    if (this.head >= COMPACT_AFTER && this.head * 2 >= this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
    while (this.heldHead < this.held.length && (this.held[this.heldHead]?.at ?? 0) <= cutoff) {
      this.heldCount -= this.held[this.heldHead]?.count ?? 0;
      this.heldHead++;
    }
    if (this.heldHead >= COMPACT_AFTER && this.heldHead * 2 >= this.held.length) {
      this.held = this.held.slice(this.heldHead);
      this.heldHead = 0;
    }
  }

  private secondsUntilSlotFrees(now: number): number {
    if (this.count === 0) return 0;
    const oldestAdmitted = this.head < this.times.length ? (this.times[this.head] ?? now) : Infinity;
    // A fully returned loan frees nothing; the first loan still holding slots does.
    let oldestHeld = Infinity;
    for (let i = this.heldHead; i < this.held.length && oldestHeld === Infinity; i++) {
      const loan = this.held[i];
      if (loan && loan.count > 0) oldestHeld = loan.at;
    }
    const oldest = Math.min(oldestAdmitted, oldestHeld);
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }
}
