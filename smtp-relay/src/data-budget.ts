/**
 * A cap on the message bytes the relay holds in memory at once, across every session. Each message
 * is buffered whole before it is forwarded (the API takes it in one request), so without a cap
 * SMTP_MAX_CLIENTS × SMTP_MAX_MESSAGE_BYTES could exhaust memory. A message reserves its bytes as
 * they arrive and gives them all back once it has been forwarded, refused, or its client went away.
 */
export class DataBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  /** The bytes held now. */
  get buffered(): number {
    return this.used;
  }

  /** A reservation for one message, empty until it takes bytes. */
  reserve(): Reservation {
    let held = 0;
    return {
      take: (bytes) => {
        if (this.used + bytes > this.capacity) return false;
        this.used += bytes;
        held += bytes;
        return true;
      },
      release: () => {
        this.used -= held;
        held = 0;
      },
    };
  }
}

export interface Reservation {
  /** Adds `bytes` to the reservation; false (and nothing taken) when that would exceed the cap. */
  take(bytes: number): boolean;
  /** Gives back everything taken; safe to call more than once. */
  release(): void;
}
