import { authenticate } from "./auth";
import { type Capabilities, ehlo } from "./capabilities";
import { SmtpConnection } from "./connection";
import { checkEnvelope, mailFromCommand } from "./envelope";
import { asFailure, replyFailure, SmtpFailure } from "./failure";
import { messageData } from "./message-data";
import { addRecipients } from "./recipients";
import type { SmtpEnvelope, SmtpOptions, SmtpResult } from "./types";

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Submits one message over one SMTP session: greeting, EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA,
 * QUIT. Never throws: every outcome is a result, and the socket is closed whatever happens.
 */
export async function sendMail(
  options: SmtpOptions,
  envelope: SmtpEnvelope,
  message: string,
): Promise<SmtpResult> {
  const invalid = checkEnvelope(envelope, options.heloName);
  if (invalid) return invalid.toResult();
  let connection: SmtpConnection | undefined;
  try {
    connection = await SmtpConnection.open(options, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const result = await converse(connection, options, envelope, message);
    await connection.quit();
    return result;
  } catch (error) {
    const failure = asFailure("connect", error);
    // After a refusal the server is still listening and deserves a QUIT; after a network error it is not.
    if (failure.code !== null) await connection?.quit();
    return failure.toResult();
  } finally {
    await connection?.close();
  }
}

async function converse(
  connection: SmtpConnection,
  options: SmtpOptions,
  envelope: SmtpEnvelope,
  message: string,
): Promise<SmtpResult> {
  await connection.reply("greeting", 220);
  let capabilities = await ehlo(connection, options.heloName);
  if (options.security === "starttls") capabilities = await upgrade(connection, options, capabilities);
  if (options.auth) await authenticate(connection, capabilities, options.auth);

  const data = messageData(message);
  const eightBit = data.some((byte) => byte > 0x7f);
  await connection.command(
    "mail",
    mailFromCommand(envelope, capabilities, { size: data.byteLength, eightBit }),
    250,
  );
  const rejected = await addRecipients(connection, envelope.to);
  await connection.command("data", "DATA", 354);
  const reply = await connection.send("message", data);
  if (reply.code !== 250) throw replyFailure("message", reply);
  return { ok: true, code: reply.code, response: reply.text, rejected };
}

/** STARTTLS is required, not opportunistic: a server that does not offer it is not sent to. */
async function upgrade(
  connection: SmtpConnection,
  options: SmtpOptions,
  capabilities: Capabilities,
): Promise<Capabilities> {
  if (!capabilities.has("STARTTLS")) {
    throw new SmtpFailure("starttls", null, "the server does not offer STARTTLS, which is required");
  }
  await connection.command("starttls", "STARTTLS", 220);
  await connection.startTls();
  // What the server said before TLS may have been tampered with; ask again (RFC 3207 §4.2).
  return ehlo(connection, options.heloName);
}
