import { SmtpSession } from "./client";
import type { SmtpOptions } from "./types";

/**
 * Workers allow six simultaneous outgoing connections per invocation: five SMTP sessions leave
 * one for everything else (a fetch, an R2 call that needs one).
 */
export const MAX_SESSIONS = 5;

/**
 * At most `size` SMTP sessions, each carrying messages one after another: a batch of a hundred
 * emails goes out over five connections instead of opening a hundred. A session that failed is
 * dropped; `close` ends the idle ones (the pool is closed once its batch is done).
 */
export class SessionPool {
  #idle: SmtpSession[] = [];
  #open = 0;
  #waiting: Array<() => void> = [];

  constructor(
    private readonly options: SmtpOptions,
    private readonly size = MAX_SESSIONS,
  ) {}

  /** Runs `work` on a session of the pool; opening it may throw (an SmtpFailure). */
  async with<T>(work: (session: SmtpSession) => Promise<T>): Promise<T> {
    const session = await this.#acquire();
    try {
      return await work(session);
    } finally {
      this.#release(session);
    }
  }

  async close(): Promise<void> {
    const idle = this.#idle;
    this.#idle = [];
    await Promise.all(idle.map((session) => session.end()));
  }

  async #acquire(): Promise<SmtpSession> {
    for (;;) {
      const idle = this.#idle.pop();
      if (idle) return idle;
      if (this.#open < this.size) {
        this.#open++;
        try {
          return await SmtpSession.open(this.options);
        } catch (error) {
          this.#open--;
          this.#wakeOne();
          throw error;
        }
      }
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
  }

  #release(session: SmtpSession) {
    if (session.broken) this.#open--;
    else this.#idle.push(session);
    this.#wakeOne();
  }

  #wakeOne() {
    this.#waiting.shift()?.();
  }
}
