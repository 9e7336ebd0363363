import type { SmtpConnection } from "./connection";
import { SmtpFailure } from "./failure";
import type { SmtpRejection } from "./types";

/**
 * RCPT TO for each recipient. Refusals are collected rather than fatal: the message still goes to
 * whoever was accepted. Only when nobody was does the send fail, with the worst reply.
 */
export async function addRecipients(
  connection: SmtpConnection,
  recipients: string[],
): Promise<SmtpRejection[]> {
  const rejected: SmtpRejection[] = [];
  for (const recipient of recipients) {
    const reply = await connection.exchange("rcpt", `RCPT TO:<${recipient}>`);
    if (reply.code >= 200 && reply.code < 300) continue;
    rejected.push({ recipient, code: reply.code, response: reply.text });
  }
  if (rejected.length === recipients.length) {
    const worst = rejected.reduce((a, b) => (b.code > a.code ? b : a));
    throw new SmtpFailure("rcpt", worst.code, worst.response);
  }
  return rejected;
}
