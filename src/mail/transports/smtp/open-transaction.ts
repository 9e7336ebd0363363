import type { Capabilities } from "./capabilities";
import type { SmtpConnection } from "./connection";
import { mailFromCommand } from "./envelope";
import { replyFailure, SmtpFailure } from "./failure";
import { addRecipients } from "./recipients";
import type { SmtpReply } from "./reply-reader";
import type { SmtpEnvelope, SmtpRejection } from "./types";

const encoder = new TextEncoder();

/** Whether the data has bytes over 0x7f, worked out once per message (one per recipient would repeat it). */
const eightBitOf = new WeakMap<Uint8Array, boolean>();
function isEightBit(data: Uint8Array): boolean {
  let known = eightBitOf.get(data);
  if (known === undefined) {
    known = data.some((byte) => byte > 0x7f);
    eightBitOf.set(data, known);
  }
  return known;
}

/**
 * MAIL, RCPT for each recipient and DATA, up to the server's 354: answers the recipients it
 * refused. A refusal of the transaction (of MAIL, of every recipient, of DATA) throws an
 * SmtpFailure that is a reply, after every answer was read, so the session can go on with RSET.
 * A server that offers PIPELINING (RFC 2920) gets the three in one write and answers them in
 * turn: two round trips a recipient instead of four, which is most of the time a distant server
 * takes.
 */
export async function openTransaction(
  connection: SmtpConnection,
  capabilities: Capabilities,
  envelope: SmtpEnvelope,
  data: Uint8Array,
): Promise<SmtpRejection[]> {
  const mail = mailFromCommand(envelope, capabilities, { size: data.byteLength, eightBit: isEightBit(data) });
  if (!capabilities.has("PIPELINING")) {
    await connection.command("mail", mail, 250);
    const rejected = await addRecipients(connection, envelope.to);
    await connection.command("data", "DATA", 354);
    return rejected;
  }
  const commands = [mail, ...envelope.to.map((to) => `RCPT TO:<${to}>`), "DATA"];
  await connection.write("mail", encoder.encode(commands.map((c) => `${c}\r\n`).join("")));
  const mailReply = await connection.next("mail");
  const rcptReplies: SmtpReply[] = [];
  for (const _ of envelope.to) rcptReplies.push(await connection.next("rcpt"));
  const dataReply = await connection.next("data");
  const rejected = envelope.to.flatMap((recipient, i) => {
    const reply = rcptReplies[i] as SmtpReply;
    return reply.code >= 200 && reply.code < 300
      ? []
      : [{ recipient, code: reply.code, response: reply.text }];
  });
  // A server that took DATA though nothing before it held ends the empty message at once.
  const refusal = transactionRefusal(mailReply, rejected, envelope.to.length, dataReply);
  if (refusal && dataReply.code === 354) await connection.send("message", encoder.encode(".\r\n"));
  if (refusal) throw refusal;
  return rejected;
}

/** Why a pipelined transaction cannot carry its message: MAIL first, then the recipients, then DATA. */
function transactionRefusal(
  mail: SmtpReply,
  rejected: SmtpRejection[],
  recipients: number,
  data: SmtpReply,
): SmtpFailure | null {
  if (mail.code !== 250) return replyFailure("mail", mail);
  if (rejected.length === recipients) {
    const worst = rejected.reduce((a, b) => (b.code > a.code ? b : a));
    return new SmtpFailure("rcpt", worst.code, worst.response);
  }
  if (data.code !== 354) return replyFailure("data", data);
  return null;
}
