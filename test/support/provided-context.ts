import type { SmtpTestEnv } from "./smtp-test-env";
import type { TestTls } from "./test-tls";

/** Values handed from vitest.config.ts and the global setup to the pool and the tests. */
declare module "vitest" {
  interface ProvidedContext {
    /** Made by the config, which must trust the CA before Miniflare loads; served by the global setup. */
    testTls: TestTls;
    /** Ports and URLs of the running SMTP fixtures, bound into workerd as `SMTP_TEST`. */
    smtpTest: SmtpTestEnv;
    /** The loopback DNS-over-HTTPS resolver (`PUT /records` to publish). */
    dohUrl: string;
    /** The loopback webhook receiver (see webhook-receiver.ts). */
    webhookUrl: string;
  }
}
