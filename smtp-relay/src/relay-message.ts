/**
 * One message from the end of DATA to the API and back: collect the bytes (up to the limit), send
 * them with the envelope as the authenticated key, and turn the answer into the SMTP reply.
 */
import { createHash } from "node:crypto";
import type { SMTPServerDataStream, SMTPServerSession } from "smtp-server";
import type { ApiClient } from "./api-client";
import type { DataBudget, Reservation } from "./data-budget";
import { RELAY_BUSY, replyForSend, type SmtpReply, TEMPORARY_FAILURE } from "./replies";
import type { RelayUser } from "./sessions";

export interface RelayedMessage {
  reply: SmtpReply;
  size: number;
}

interface Collected {
  raw: Buffer;
  size: number;
  /** The cap on buffered DATA was reached: the bytes were dropped, the client is to retry. */
  overBudget: boolean;
}

/**
 * Buffers the message, reserving its bytes as they arrive. Past the size limit or the cap the
 * bytes held so far are dropped and the rest only counted: the message is refused anyway.
 */
function collect(
  stream: SMTPServerDataStream,
  maxBytes: number,
  reservation: Reservation,
): Promise<Collected> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let overBudget = false;
    const drop = () => {
      chunks = [];
      reservation.release();
    };
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (overBudget || size - chunk.length > maxBytes) return;
      if (size > maxBytes) drop();
      else if (reservation.take(chunk.length)) chunks.push(chunk);
      else {
        overBudget = true;
        drop();
      }
    });
    stream.on("end", () => resolve({ raw: Buffer.concat(chunks), size, overBudget }));
    stream.on("error", reject);
    // A client that leaves mid-DATA ends the stream with an error; should it end with a bare
    // 'close' instead (no 'end'), the message is over all the same and its bytes must come back.
    stream.on("close", () => reject(new Error("the connection closed before the end of DATA")));
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
  deps: { api: ApiClient; maxBytes: number; budget: DataBudget },
): Promise<RelayedMessage> {
  let size = 0;
  const reservation = deps.budget.reserve();
  try {
    const collected = await collect(stream, deps.maxBytes, reservation);
    size = collected.size;
    if (stream.sizeExceeded || size > deps.maxBytes) {
      const message = `5.3.4 Message too big: the limit is ${deps.maxBytes} bytes`;
      return { size, reply: { code: 552, message, outcome: "rejected", emailId: null } };
    }
    if (collected.overBudget) return { size, reply: RELAY_BUSY };
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
  } finally {
    reservation.release();
  }
}
