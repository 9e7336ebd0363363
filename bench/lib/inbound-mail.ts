/**
 * Inbound mail for the benchmarks: small plain-text messages shaped as a mail client writes them
 * (a new conversation, or a reply quoting the agent), delivered through wrangler dev's local email
 * endpoint by the same `deliverInbound` as `npm run inbound`, and timed.
 */
import { deliverInbound, type InboundResult } from "../../scripts/lib/inbound";

export interface MailSpec {
  from: string;
  /** The envelope recipient (RCPT TO): the inbox's address or a signed reply address. */
  to: string;
  subject: string;
  /** With its angle brackets, unique per message. */
  messageId: string;
  body: string;
  /** A reply's parent (the agent's Message-ID) and its chain, oldest first. */
  inReplyTo?: string;
  references?: string[];
}

const DATE = "Thu, 12 Nov 2026 10:00:00 +0000";

/** The MIME of one message, CRLF line ends as a receiving server hands it on. */
export function mimeOf(mail: MailSpec): string {
  const headers = [
    `From: Bench Customer <${mail.from}>`,
    `To: <${mail.to}>`,
    `Subject: ${mail.subject}`,
    `Date: ${DATE}`,
    `Message-ID: ${mail.messageId}`,
    ...(mail.inReplyTo ? [`In-Reply-To: ${mail.inReplyTo}`] : []),
    ...(mail.references?.length ? [`References: ${mail.references.join(" ")}`] : []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: 7bit",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${mail.body.replace(/\r?\n/g, "\r\n")}\r\n`;
}

export interface TimedDelivery {
  /** `error` when the endpoint could not be reached at all (the request threw). */
  outcome: InboundResult["outcome"] | "error";
  reason?: string;
  /** From sending the request to the handler's answer (it answers once the message is stored). */
  ms: number;
}

export async function deliverTimed(baseUrl: string, mail: MailSpec): Promise<TimedDelivery> {
  const raw = mimeOf(mail);
  const started = performance.now();
  try {
    const result = await deliverInbound({ baseUrl, from: mail.from, to: mail.to, raw });
    return { ...result, ms: performance.now() - started };
  } catch (error) {
    return { outcome: "error", reason: String(error), ms: performance.now() - started };
  }
}

/** Runs `task` on every item, `concurrency` at a time, and answers the results in item order. */
export async function inParallel<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
