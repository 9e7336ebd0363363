import { DurableObject } from "cloudflare:workers";
import { createDb } from "../db/client";
import { countingEnv } from "../db/counting-d1";
import { directoryDb } from "../db/directory/client";
import { workspaceOfKeyHash } from "../db/directory/key-hashes";
import { homeOf } from "../db/directory/workspaces";
import { shardD1 } from "../db/shards";
import type { Principal } from "../env";
import { describeError, log } from "../lib/logger";
import { limitsFor, type PlanName, parseQuotaOverrides } from "../lib/plans";
import { mayAct } from "../lib/workspace-gate";
import { findKeyForAuth, recordKeyUse } from "./guard-keys.repo";
import { LEASE_HOLD_MS, MAX_LEASE } from "./key-leases";
import { RollingWindow } from "./rolling-window";
import type { Unspent, Verdict } from "./verdict";

interface CachedKey {
  principal: Principal;
  isActive: boolean;
  accountActive: boolean;
  rateLimit: number;
  lastUsedAt: number | null;
}

/** After this long the cached record is re-read in the background (plan or status changes). */
const REFRESH_AFTER_MS = 60_000;
/** `last_used_at` is written at most this often, so it stays well within a minute of the truth. */
const LAST_USED_WRITE_INTERVAL_MS = 30_000;

/**
 * One instance per API key (named by the token's SHA-256). It authenticates the key from a cached
 * record, so a warm request reads nothing from D1, and admits at most the plan's requests in any
 * rolling 60 seconds. Admission runs synchronously after the record is loaded, so concurrent
 * requests cannot interleave inside it.
 *
 * A busy isolate asks for several slots at once (`want`) and spends the spare ones itself within
 * a second (key-leases.ts), so most of its requests make no call here; the window counts lent slots
 * as spent (RollingWindow.lease), so the limit holds across isolates whenever they spend them.
 */
export class KeyGuard extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    // `env` itself unless D1_ROUND_TRIPS=count (the benchmarks' D1 round-trip counts).
    super(ctx, countingEnv(env, "durable_object"));
  }

  private cached: CachedKey | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private window: RollingWindow | null = null;
  private lastUsedWrittenAt = 0;

  async admit(tokenHash: string, want = 1, unspent?: Unspent): Promise<Verdict> {
    if (this.loadedAt === 0) await this.load(tokenHash);
    else if (Date.now() - this.loadedAt > REFRESH_AFTER_MS) this.refreshInBackground(tokenHash);

    const key = this.cached;
    if (!key?.isActive) return { kind: "invalid" };
    if (!key.accountActive) return { kind: "suspended", principal: key.principal };

    const now = Date.now();
    const window = this.windowFor(key.rateLimit, now);
    if (unspent) window.giveBack(unspent.leaseId, unspent.count);
    const wanted = Math.min(MAX_LEASE, Math.max(1, Math.floor(want)));
    const { admitted, ...decision } = window.lease(now, wanted, LEASE_HOLD_MS);
    if (!admitted) {
      return {
        kind: "limited",
        principal: key.principal,
        limit: decision.limit,
        remaining: 0,
        resetSeconds: decision.resetSeconds,
      };
    }
    await this.noteUse(key, now);
    return { kind: "admitted", principal: key.principal, ...decision };
  }

  /** Called by the revocation service: the very next request is refused. */
  revoke(): void {
    if (this.cached) this.cached.isActive = false;
  }

  /** Drops the cached record so the next request re-reads it (after a plan or status change). */
  forget(): void {
    this.cached = null;
    this.loadedAt = 0;
  }

  private load(tokenHash: string): Promise<void> {
    // Requests that arrive while the record is being read share the one read.
    this.loading ??= this.readRecord(tokenHash).finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private refreshInBackground(tokenHash: string): void {
    if (this.loading) return;
    this.load(tokenHash).catch((error: unknown) =>
      log.warn("key_guard.refresh_failed", describeError(error)),
    );
  }

  /**
   * The directory names the key's workspace and shard (one read), and the shard holds the key and
   * its workspace's plan and status (one read); a hash the directory does not know is no key.
   */
  private async readRecord(tokenHash: string): Promise<void> {
    const home = await workspaceOfKeyHash(directoryDb(this.env), tokenHash);
    const row =
      home && (await findKeyForAuth(createDb(shardD1(this.env, home.shard)), tokenHash, home.accountId));

    // A revocation seen in memory stays in force even if this read raced with it.
    const revokedHere = this.cached?.isActive === false;
    this.cached = row && {
      principal: {
        keyId: row.keyId,
        keyPrefix: row.keyPrefix,
        accountId: row.accountId,
        shard: home.shard,
        permission: row.permission,
      },
      isActive: row.isActive && !revokedHere,
      accountActive: mayAct(row.accountStatus),
      rateLimit:
        limitsFor(row.plan as PlanName, parseQuotaOverrides(row.quotaOverrides)).requests_per_minute ?? 6_000,
      lastUsedAt: row.lastUsedAt,
    };
    this.loadedAt = Date.now();
  }

  private windowFor(limit: number, now: number): RollingWindow {
    if (!this.window) this.window = new RollingWindow(limit);
    else if (this.window.limit !== limit) this.window = this.window.resizedTo(limit, now);
    return this.window;
  }

  /**
   * The first use is written before answering, so it shows at once; later uses are written at
   * most every 30 s without holding up the request.
   */
  private async noteUse(key: CachedKey, now: number): Promise<void> {
    if (key.lastUsedAt === null) {
      key.lastUsedAt = now;
      this.lastUsedWrittenAt = now;
      await this.writeUse(key, now);
      return;
    }
    key.lastUsedAt = now;
    if (now - this.lastUsedWrittenAt < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWrittenAt = now;
    this.ctx.waitUntil(
      this.writeUse(key, now).then(
        () => undefined,
        (error: unknown) => log.warn("key_guard.last_used_failed", describeError(error)),
      ),
    );
  }

  /**
   * `last_used_at` goes to the shard the directory names now (the record's may be from before a
   * move); while the workspace is being moved it is not written (a later use writes it).
   */
  private async writeUse(key: CachedKey, now: number): Promise<void> {
    const home = await homeOf(directoryDb(this.env), key.principal.accountId);
    if (home?.frozen) return;
    const db = createDb(shardD1(this.env, home?.shard ?? key.principal.shard));
    await recordKeyUse(db, key.principal.keyId, now);
  }
}
