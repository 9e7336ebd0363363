/**
 * AUTH decisions: the user name must be the literal `apikey` and the password a key the API
 * accepts. A success is cached briefly (keyed by the password's SHA-256, never the key itself) so
 * a client that opens a session per message does not cost an API call each time; failures are not
 * cached, so a key that starts working is accepted at once. Repeated failures from one address wait
 * longer and longer before their 535, which makes guessing keys slow.
 */
import { createHash } from "node:crypto";
import type { ApiClient } from "./api-client";
import { type AuthVerdict, type SmtpReply, verdictForAuth } from "./replies";

export const RELAY_USER = "apikey";

export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");

export interface AuthGateOptions {
  cacheMs: number;
  failureDelayMs: number;
  failureDelayMaxMs: number;
}

/** Failures are forgotten after this long without another one. */
const FAILURE_MEMORY_MS = 15 * 60_000;

export type AuthResult = AuthVerdict & { keyHash: string };

export class AuthGate {
  private readonly accepted = new Map<string, { verdict: AuthVerdict; until: number }>();
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(
    private readonly api: ApiClient,
    private readonly options: AuthGateOptions,
  ) {}

  async check(clientIp: string, username: string, password: string): Promise<AuthResult> {
    const keyHash = sha256Hex(password);
    const now = Date.now();
    const cached = this.accepted.get(keyHash);
    let verdict: AuthVerdict;
    if (username !== RELAY_USER) {
      verdict = { kind: "refused", reply: refusal(`the user name must be "${RELAY_USER}"`) };
    } else if (cached && cached.until > now) {
      verdict = cached.verdict;
    } else {
      verdict = verdictForAuth(await this.api.checkKey(password));
      if (verdict.kind === "accepted") {
        this.prune(now);
        this.accepted.set(keyHash, { verdict, until: now + this.options.cacheMs });
      }
    }
    if (verdict.kind === "refused") await this.slowDown(clientIp, now);
    else if (verdict.kind === "accepted") this.failures.delete(clientIp);
    return { ...verdict, keyHash };
  }

  /** Forgets a key the API refused later (revoked while cached). */
  forget(keyHash: string): void {
    this.accepted.delete(keyHash);
  }

  private async slowDown(clientIp: string, now: number): Promise<void> {
    if (this.failures.size > 10_000) this.prune(now);
    const previous = this.failures.get(clientIp);
    const count = previous && now - previous.last < FAILURE_MEMORY_MS ? previous.count + 1 : 1;
    this.failures.set(clientIp, { count, last: now });
    // The first failure is a typo; from the second on, each costs twice the previous wait.
    if (count < 2 || this.options.failureDelayMs === 0) return;
    const delay = Math.min(this.options.failureDelayMs * 2 ** (count - 2), this.options.failureDelayMaxMs);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }

  /** Keeps both maps bounded: expired entries go when a success is cached or failures pile up. */
  private prune(now: number): void {
    for (const [hash, entry] of this.accepted) if (entry.until <= now) this.accepted.delete(hash);
    for (const [ip, entry] of this.failures) {
      if (now - entry.last >= FAILURE_MEMORY_MS) this.failures.delete(ip);
    }
  }
}

function refusal(why: string): SmtpReply {
  return {
    code: 535,
    message: `5.7.8 Authentication credentials invalid: ${why}`,
    outcome: "auth_failed",
    emailId: null,
  };
}
