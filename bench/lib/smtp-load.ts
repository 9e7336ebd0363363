/**
 * SMTP load: `senders` clients, each on its own kept-open connection (as a mail server or an app
 * with a pooled transport would be), sending one message after another for `seconds`.
 */
import nodemailer, { type SendMailOptions } from "nodemailer";
import { quantile } from "./api";
import type { Measurement } from "./types";

export interface SmtpLoad {
  label: string;
  port: number;
  password: string;
  ca: string;
  senders: number;
  seconds: number;
  message: SendMailOptions;
}

export async function measureSmtp(load: SmtpLoad): Promise<Measurement> {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = Date.now() + load.seconds * 1000;
  const started = Date.now();
  const sender = async () => {
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: load.port,
      requireTLS: true,
      pool: true,
      maxConnections: 1,
      maxMessages: Number.POSITIVE_INFINITY,
      auth: { user: "apikey", pass: load.password },
      tls: { ca: load.ca, servername: "localhost" },
    });
    try {
      while (Date.now() < deadline) {
        const at = performance.now();
        try {
          await transport.sendMail(load.message);
          latencies.push(performance.now() - at);
        } catch {
          failures += 1;
        }
      }
    } finally {
      transport.close();
    }
  };
  await Promise.all(Array.from({ length: load.senders }, sender));
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label: load.label,
    rps: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    non2xx: failures,
    errors: 0,
    total: latencies.length + failures,
  };
}
