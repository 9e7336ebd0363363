/**
 * The relay's only way into the service: HTTP calls to the Worker. Network failures are answers
 * too (`unreachable`), so the SMTP side can turn them into temporary replies instead of crashing.
 */

export type ApiAnswer =
  | { kind: "http"; status: number; body: Record<string, unknown>; retryAfter: string | null }
  | { kind: "unreachable"; reason: string };

export interface RawMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  idempotencyKey: string;
}

export interface ApiClientOptions {
  baseUrl: string;
  relayToken: string;
  /** A send may carry 25 MB; a slow link needs time. */
  sendTimeoutMs?: number;
  checkTimeoutMs?: number;
}

async function request(url: string, init: RequestInit, timeoutMs: number): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { kind: "unreachable", reason: cause ?? (error instanceof Error ? error.name : "error") };
  }
  const text = await response.text().catch(() => "");
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page: the status alone decides.
  }
  return { kind: "http", status: response.status, body, retryAfter: response.headers.get("Retry-After") };
}

export function createApiClient(options: ApiClientOptions) {
  const { baseUrl, relayToken } = options;
  const sendTimeoutMs = options.sendTimeoutMs ?? 120_000;
  const checkTimeoutMs = options.checkTimeoutMs ?? 10_000;
  return {
    /** Whether the API accepts `apiKey` for relayed sends (GET /v1/emails/raw/credentials). */
    checkKey(apiKey: string): Promise<ApiAnswer> {
      return request(
        `${baseUrl}/v1/emails/raw/credentials`,
        { headers: { Authorization: `Bearer ${apiKey}` } },
        checkTimeoutMs,
      );
    },

    /** One relayed message as the authenticated key (POST /v1/emails/raw). */
    sendRaw(apiKey: string, message: RawMessage): Promise<ApiAnswer> {
      return request(
        `${baseUrl}/v1/emails/raw`,
        {
          method: "POST",
          headers: {
            Authorization: `Bearer ${apiKey}`,
            "Content-Type": "application/json",
            "Idempotency-Key": message.idempotencyKey,
            "User-Agent": "smtp-relay",
          },
          body: JSON.stringify({
            mail_from: message.mailFrom,
            rcpt_to: message.rcptTo,
            raw: message.raw.toString("base64"),
          }),
        },
        sendTimeoutMs,
      );
    },

    /** Session records for GET /v1/accounts/{id}/smtp-logs (POST /_relay/smtp-logs). */
    recordLogs(logs: unknown[]): Promise<ApiAnswer> {
      return request(
        `${baseUrl}/_relay/smtp-logs`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${relayToken}`, "Content-Type": "application/json" },
          body: JSON.stringify({ logs }),
        },
        checkTimeoutMs,
      );
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
