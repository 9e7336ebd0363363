/**
 * The relay's configuration, from the environment, parsed once with zod so a typo fails at start
 * with a message naming the variable instead of misbehaving later.
 */
import { z } from "zod";

const ms = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const EnvSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    /** 587 in production; 2587 by default so development needs no privileges and no clash. */
    SMTP_PORT: z.coerce.number().int().min(0).max(65_535).default(2587),
    SMTP_HOST: z.string().min(1).default("127.0.0.1"),
    /** The name in the greeting and EHLO answer; also the certificate's name when one is generated. */
    SMTP_NAME: z.string().min(1).default("localhost"),
    SMTP_TLS_CERT: z.string().min(1).optional(),
    SMTP_TLS_KEY: z.string().min(1).optional(),
    /** Where a development certificate is generated on first start when no paths are given. */
    SMTP_TLS_DIR: z
      .string()
      .min(1)
      .default(new URL("../.certs", import.meta.url).pathname),
    RELAY_API_URL: z.url().default("http://127.0.0.1:8787"),
    RELAY_TOKEN: z.string().min(16, "RELAY_TOKEN must be the Worker's RELAY_TOKEN secret"),
    /** SIZE advertised and enforced; the API refuses more than 25 MB anyway. */
    SMTP_MAX_MESSAGE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(25 * 1024 * 1024),
    /**
     * The message bytes held in memory at once across every session; a message that would go past
     * it gets a temporary 452 and its client retries. Forwarding a message briefly needs more than
     * its size (its base64 copy in the JSON body), so leave headroom below the process's memory.
     */
    SMTP_MAX_BUFFERED_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(256 * 1024 * 1024),
    SMTP_MAX_RECIPIENTS: z.coerce.number().int().positive().max(1000).default(1000),
    SMTP_MAX_CLIENTS: z.coerce.number().int().positive().default(1000),
    SMTP_IDLE_TIMEOUT_MS: ms(60_000),
    SMTP_SESSION_TIMEOUT_MS: ms(10 * 60_000),
    /** How long an accepted key is trusted without asking the API again. */
    SMTP_AUTH_CACHE_MS: ms(30_000),
    /** The first delay before a repeated 535 to one address; it doubles per failure up to the cap. */
    SMTP_AUTH_FAILURE_DELAY_MS: z.coerce.number().int().min(0).default(500),
    SMTP_AUTH_FAILURE_DELAY_MAX_MS: z.coerce.number().int().min(0).default(10_000),
    /** How long a finished session may take to leave on SIGTERM before it is cut. */
    SMTP_SHUTDOWN_GRACE_MS: ms(30_000),
    /** Polling interval of the certificate files. */
    SMTP_TLS_WATCH_MS: ms(5_000),
  })
  .superRefine((env, ctx) => {
    if (env.SMTP_MAX_BUFFERED_BYTES < env.SMTP_MAX_MESSAGE_BYTES) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_MAX_BUFFERED_BYTES"],
        message: "must be at least SMTP_MAX_MESSAGE_BYTES, or a message of the largest size could never pass",
      });
    }
    if (Boolean(env.SMTP_TLS_CERT) !== Boolean(env.SMTP_TLS_KEY)) {
      ctx.addIssue({ code: "custom", message: "set both SMTP_TLS_CERT and SMTP_TLS_KEY, or neither" });
    }
    if (env.NODE_ENV === "production" && !env.SMTP_TLS_CERT) {
      ctx.addIssue({
        code: "custom",
        message:
          "production needs SMTP_TLS_CERT and SMTP_TLS_KEY (a self-signed certificate is for development)",
      });
    }
  });

export interface RelayConfig {
  port: number;
  host: string;
  name: string;
  tls: { certPath: string; keyPath: string; generate: boolean; watchMs: number };
  apiUrl: string;
  relayToken: string;
  maxMessageBytes: number;
  maxBufferedBytes: number;
  maxRecipients: number;
  maxClients: number;
  idleTimeoutMs: number;
  sessionTimeoutMs: number;
  authCacheMs: number;
  authFailureDelayMs: number;
  authFailureDelayMaxMs: number;
  shutdownGraceMs: number;
}

/** Parses the environment; throws one Error listing every problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): RelayConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`);
    throw new Error(`Invalid relay configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  const generate = !e.SMTP_TLS_CERT;
  return {
    port: e.SMTP_PORT,
    host: e.SMTP_HOST,
    name: e.SMTP_NAME,
    tls: {
      certPath: e.SMTP_TLS_CERT ?? `${e.SMTP_TLS_DIR}/cert.pem`,
      keyPath: e.SMTP_TLS_KEY ?? `${e.SMTP_TLS_DIR}/key.pem`,
      generate,
      watchMs: e.SMTP_TLS_WATCH_MS,
    },
    apiUrl: e.RELAY_API_URL.replace(/\/+$/, ""),
    relayToken: e.RELAY_TOKEN,
    maxMessageBytes: e.SMTP_MAX_MESSAGE_BYTES,
    maxBufferedBytes: e.SMTP_MAX_BUFFERED_BYTES,
    maxRecipients: e.SMTP_MAX_RECIPIENTS,
    maxClients: e.SMTP_MAX_CLIENTS,
    idleTimeoutMs: e.SMTP_IDLE_TIMEOUT_MS,
    sessionTimeoutMs: e.SMTP_SESSION_TIMEOUT_MS,
    authCacheMs: e.SMTP_AUTH_CACHE_MS,
    authFailureDelayMs: e.SMTP_AUTH_FAILURE_DELAY_MS,
    authFailureDelayMaxMs: e.SMTP_AUTH_FAILURE_DELAY_MAX_MS,
    shutdownGraceMs: e.SMTP_SHUTDOWN_GRACE_MS,
  };
}
