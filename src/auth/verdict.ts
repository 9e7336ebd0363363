import type { Principal } from "../env";

/** How the guard answers one request. */
export type Verdict =
  | { kind: "invalid" }
  | { kind: "suspended"; principal: Principal }
  | {
      kind: "admitted";
      principal: Principal;
      limit: number;
      remaining: number;
      resetSeconds: number;
      /** Further slots lent to the caller's isolate, to spend within LEASE_SPEND_MS (key-leases.ts). */
      spare: number;
      leaseId: number;
    }
  | { kind: "limited"; principal: Principal; limit: number; remaining: 0; resetSeconds: number };

/** What an isolate hands back: the slots of an earlier lease it did not spend. */
export interface Unspent {
  leaseId: number;
  count: number;
}
