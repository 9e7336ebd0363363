import type { Unspent, Verdict } from "./verdict";

/**
 * Spends slots of a key's rate limit in this isolate, so that a busy key makes one call to its
 * guard (the Durable Object) per lease instead of one per request.
 *
 * - A key used one request at a time asks its guard for every request, exactly as without leases:
 *   each lease is one slot, and the guard sees (and records) every use.
 * - When requests of a key had to wait for the guard's answer, the next lease asks for more (twice
 *   as many as waited, up to MAX_LEASE), and the spare slots are spent here for LEASE_SPEND_MS.
 * - Slots still unspent when a lease ends go back to the guard with the next call, so another
 *   isolate can have them; if that call never comes they are counted until the guard's hold ends.
 * - A revocation reaches this isolate within LEASE_SPEND_MS at most: no slot is spent after it,
 *   and the next lease is refused. `forgetKey` drops this isolate's lease at once (the revoking
 *   isolate, and every test, sees the revocation at the very next request).
 *
 * Hand-written: no library leases a Durable Object's budget to isolates.
 */
export const LEASE_SPEND_MS = 900;
/**
 * How long the guard counts lent slots past their loan before the usual 60 s: longer than an
 * isolate may spend them, so a slot spent at the last moment still counts a full minute after.
 */
export const LEASE_HOLD_MS = 1_000;
/** At most this many slots per lease, so no isolate holds much of a key's budget at once. */
export const MAX_LEASE = 64;

export type AskGuard = (want: number, unspent: Unspent | undefined) => Promise<Verdict>;

type Admitted = Extract<Verdict, { kind: "admitted" }>;

class KeyLease {
  private granted: Admitted | null = null;
  private spare = 0;
  private spendUntil = 0;
  private asking: Promise<Verdict> | null = null;
  private waiting = 0;
  private waitedLastTime = 0;
  private lastGrant = 1;

  async admit(ask: AskGuard): Promise<Verdict> {
    for (;;) {
      const fromLease = this.takeSpare();
      if (fromLease) return fromLease;
      if (this.asking) {
        this.waiting++;
        const verdict = await this.asking;
        if (verdict.kind !== "admitted") return verdict;
        continue;
      }
      return this.askGuard(ask);
    }
  }

  /** Spends nothing more from the current lease (its unspent slots stay counted until the hold ends). */
  drop(): void {
    this.spare = 0;
    this.granted = null;
  }

  private takeSpare(): Verdict | null {
    if (!this.granted || this.spare === 0 || Date.now() >= this.spendUntil) return null;
    this.spare--;
    return { ...this.granted, remaining: this.granted.remaining + this.spare, spare: 0 };
  }

  private async askGuard(ask: AskGuard): Promise<Verdict> {
    const unspent =
      this.granted && this.spare > 0 ? { leaseId: this.granted.leaseId, count: this.spare } : undefined;
    this.spare = 0;
    // More only for a key whose requests queued behind the last call: one-at-a-time use stays one.
    const want =
      this.waitedLastTime > 0
        ? Math.min(MAX_LEASE, Math.max(2 * this.waitedLastTime, 2 * this.lastGrant))
        : 1;
    this.waiting = 0;
    // Measured from before the call: the guard lends at or after this moment, so the slots are
    // spent within LEASE_SPEND_MS of the loan whatever the two clocks say.
    const sentAt = Date.now();
    this.asking = ask(want, unspent);
    try {
      const verdict = await this.asking;
      this.waitedLastTime = this.waiting;
      if (verdict.kind === "admitted") {
        this.granted = verdict;
        this.spare = verdict.spare;
        this.spendUntil = sentAt + LEASE_SPEND_MS;
        this.lastGrant = verdict.spare + 1;
        return { ...verdict, remaining: verdict.remaining + verdict.spare, spare: 0 };
      }
      this.granted = null;
      return verdict;
    } finally {
      this.asking = null;
    }
  }
}

/** The leases of this isolate, one per key in use, the least recently used dropped beyond MAX_KEYS. */
export class KeyLeases {
  private readonly leases = new Map<string, KeyLease>();

  constructor(private readonly maxKeys: number) {}

  admit(tokenHash: string, ask: AskGuard): Promise<Verdict> {
    let lease = this.leases.get(tokenHash);
    if (lease) this.leases.delete(tokenHash);
    else lease = new KeyLease();
    this.leases.set(tokenHash, lease);
    for (const oldest of this.leases.keys()) {
      if (this.leases.size <= this.maxKeys) break;
      this.leases.delete(oldest);
    }
    return lease.admit(ask);
  }

  /** Stops spending a key's lease here (revocation): the next request asks the guard. */
  forgetKey(tokenHash: string): void {
    this.leases.get(tokenHash)?.drop();
    this.leases.delete(tokenHash);
  }
}

/** One per isolate; a lease is a few numbers, so 10,000 keys stay well under a megabyte. */
export const keyLeases = new KeyLeases(10_000);
