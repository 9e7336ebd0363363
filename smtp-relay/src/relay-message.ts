/**
 * One message from the end of DATA to the API and back: collect the bytes (up to the limit), send
 * them with the envelope as the authenticated key, and turn the answer into the SMTP reply.
 */
import { createHash } from "node:crypto";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import type { ApiClient } from "./api-client";
import { replyForSend, type SmtpReply, TEMPORARY_FAILURE } from "./replies";
import type { RelayUser } from "./sessions";

export interface RelayedMessage {
  reply: SmtpReply;
  size: number;
}

function collect(stream: SMTPServerDataStream, maxBytes: number): Promise<{ raw: Buffer; size: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Past the limit the bytes are only counted: the message is refused anyway.
      if (size <= maxBytes) chunks.push(chunk);
    });
    stream.on("end", () => resolve({ raw: Buffer.concat(chunks), size }));
    stream.on("error", reject);
  });
}

/**
 * The same envelope and bytes give the same key, so when a client retries a message whose first
 * answer it never saw (a timeout after the API accepted it), the API replays instead of sending twice.
 */
function idempotencyKey(mailFrom: string, rcptTo: string[], raw: Buffer): string {
  const hash = createHash("sha256")
    .update(`${mailFrom}\n${rcptTo.join(",")}\n`)
    .update(raw)
    .digest("hex");
  return `smtp-${hash}`;
}

export async function relayMessage(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  deps: { api: ApiClient; maxBytes: number },
): Promise<RelayedMessage> {
  let size = 0;
  try {
    const collected = await collect(stream, deps.maxBytes);
    size = collected.size;
    if (stream.sizeExceeded || size > deps.maxBytes) {
      const message = `5.3.4 Message too big: the limit is ${deps.maxBytes} bytes`;
      return { size, reply: { code: 552, message, outcome: "rejected", emailId: null } };
    }
    const user = session.user as RelayUser;
    const mailFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
    const rcptTo = session.envelope.rcptTo.map((r) => r.address);
    const answer = await deps.api.sendRaw(user.apiKey, {
      mailFrom,
      rcptTo,
      raw: collected.raw,
      idempotencyKey: idempotencyKey(mailFrom, rcptTo, collected.raw),
    });
    return { size, reply: replyForSend(answer) };
  } catch {
    // Whatever went wrong on this side, the client keeps the message and tries again.
    return { size, reply: { code: 451, message: TEMPORARY_FAILURE, outcome: "deferred", emailId: null } };
  }
}
