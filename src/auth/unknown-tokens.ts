/**
 * SHA-256 hashes of old-form tokens (made before checksums) that the key guard recently found
 * unknown, so that the same garbage is refused from memory instead of costing a Durable Object call
 * each time. Hand-written because it is a Map and a dozen lines; a Map keeps insertion order, so
 * its first key is the least recently used one.
 *
 * Why it cannot refuse a good key:
 * - a revoked key is refused by its guard as before; this only ever adds refusals;
 * - only old-form tokens are looked up here, and no key is made in the old form any more (new keys
 *   carry a checksum and always go to their guard), so no token found unknown can turn known.
 * Memory is bounded by MAX_ENTRIES: random garbage only pushes out older garbage, and each new
 * garbage token still costs the one guard call it cost before.
 */
export class RecentlyUnknownTokens {
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  has(tokenHash: string, now = Date.now()): boolean {
    const expiry = this.expiries.get(tokenHash);
    if (expiry === undefined) return false;
    this.expiries.delete(tokenHash);
    if (expiry <= now) return false;
    this.expiries.set(tokenHash, expiry); // now the most recently used
    return true;
  }

  add(tokenHash: string, now = Date.now()): void {
    this.expiries.delete(tokenHash);
    this.expiries.set(tokenHash, now + this.ttlMs);
    for (const oldest of this.expiries.keys()) {
      if (this.expiries.size <= this.maxEntries) break;
      this.expiries.delete(oldest);
    }
  }

  get size(): number {
    return this.expiries.size;
  }
}

/** One per isolate: a minute, and at most 5,000 hashes (well under a megabyte). */
export const recentlyUnknownTokens = new RecentlyUnknownTokens(60_000, 5_000);
