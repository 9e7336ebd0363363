/**
 * Sends SMTP log records to the service in batches (one request per 100 records or per second),
 * so logging costs the relay almost nothing per message. Logs are best effort: a failed batch is
 * reported on stderr and dropped; mail is never held back for them.
 */
import type { ApiClient } from "./api-client";
import type { Outcome } from "./replies";

export interface SmtpLogRecord {
  session_id: string;
  client_ip: string;
  tls: string | null;
  auth: "none" | "succeeded" | "failed";
  key_hash: string | null;
  mail_from: string | null;
  rcpt_to: string[];
  size: number | null;
  outcome: Outcome;
  reply_code: number;
  reply: string;
  email_id: string | null;
  at: string;
}

const MAX_BATCH = 100;

export class LogShipper {
  private pending: SmtpLogRecord[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly api: ApiClient,
    private readonly flushAfterMs = 1_000,
    private readonly warn: (message: string) => void = (m) => console.error(m),
  ) {}

  add(record: SmtpLogRecord): void {
    this.pending.push(record);
    if (this.pending.length >= MAX_BATCH) this.send();
    else this.timer ??= setTimeout(() => this.send(), this.flushAfterMs);
  }

  /** Sends what is pending and waits for every batch in flight (shutdown, tests). */
  async flush(): Promise<void> {
    this.send();
    await Promise.all([...this.inFlight]);
  }

  private send(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending.splice(0, this.pending.length);
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const slice = batch.slice(i, i + MAX_BATCH);
      const sending = this.api.recordLogs(slice).then((answer) => {
        if (answer.kind === "unreachable" || answer.status !== 200) {
          const why = answer.kind === "unreachable" ? answer.reason : `HTTP ${answer.status}`;
          this.warn(`smtp-relay: ${slice.length} SMTP log records not recorded (${why})`);
        }
      });
      this.inFlight.add(sending);
      void sending.finally(() => this.inFlight.delete(sending));
    }
  }
}
