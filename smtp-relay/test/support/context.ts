import type { Certificate } from "../../src/tls";

export interface TestWorkspace {
  accountId: string;
  keyId: string;
  /** An admin key: it may send. */
  token: string;
  /** Its verified sending domain. */
  domain: string;
}

/** What the global setup hands to the relay's tests. */
export interface RelayTestContext {
  workerUrl: string;
  relayToken: string;
  certificate: Certificate;
  workspaces: Record<"main" | "limited" | "hourly" | "monthly", TestWorkspace>;
  /** A read-only key of `main`: the API refuses it for sending. */
  readKey: string;
  /** A revoked write key of `main`. */
  revokedKey: { id: string; token: string };
}

declare module "vitest" {
  interface ProvidedContext {
    relay: RelayTestContext;
  }
}
