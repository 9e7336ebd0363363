import { authenticate } from "./auth";
import { type Capabilities, ehlo } from "./capabilities";
import { SmtpConnection } from "./connection";
import { checkEnvelope, mailFromCommand } from "./envelope";
import { asFailure, replyFailure, SmtpFailure } from "./failure";
import { messageData } from "./message-data";
import { addRecipients } from "./recipients";
import type { SmtpEnvelope, SmtpOptions, SmtpResult } from "./types";

const DEFAULT_TIMEOUT_MS = 30_000;
/** The result of an envelope nothing was tried for (none given; the session never reached it). */
const NOT_SENT: SmtpResult = { ok: false, permanent: false, code: null, response: "not sent", stage: "mail" };

/** Submits one message in one transaction over one SMTP session (see `sendTransactions`). */
export async function sendMail(
  options: SmtpOptions,
  envelope: SmtpEnvelope,
  message: string,
): Promise<SmtpResult> {
  const [result] = await sendTransactions(options, [envelope], message);
  return result ?? NOT_SENT;
}

/**
 * Submits the same message once per envelope over one SMTP session: greeting, EHLO, STARTTLS,
 * AUTH, then MAIL, RCPT, DATA for each envelope in turn, then QUIT. A new MAIL follows the end of
 * a transaction's data (RFC 5321 §3.3); a refused transaction is cleared with RSET (§4.1.1.5) and
 * the next goes on. Never throws: one result per envelope, in order; a failure of the session
 * (connecting, AUTH, a lost connection) is the result of every envelope not yet sent. The socket
 * is closed whatever happens.
 */
export async function sendTransactions(
  options: SmtpOptions,
  envelopes: SmtpEnvelope[],
  message: string,
): Promise<SmtpResult[]> {
  const results: Array<SmtpResult | undefined> = envelopes.map((e) =>
    checkEnvelope(e, options.heloName)?.toResult(),
  );
  if (results.every((r) => r !== undefined)) return results;
  let connection: SmtpConnection | undefined;
  try {
    connection = await SmtpConnection.open(options, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const capabilities = await openSession(connection, options);
    const data = messageData(message);
    for (const [i, envelope] of envelopes.entries()) {
      if (results[i] === undefined) results[i] = await transaction(connection, capabilities, envelope, data);
    }
    await connection.quit();
  } catch (error) {
    const failure = asFailure("connect", error);
    // After a refusal the server is still listening and deserves a QUIT; after a network error it is not.
    if (failure.code !== null) await connection?.quit();
    for (const i of results.keys()) results[i] ??= failure.toResult();
  } finally {
    await connection?.close();
  }
  return results.map((r) => r ?? NOT_SENT);
}

async function openSession(connection: SmtpConnection, options: SmtpOptions): Promise<Capabilities> {
  await connection.reply("greeting", 220);
  let capabilities = await ehlo(connection, options.heloName);
  if (options.security === "starttls") capabilities = await upgrade(connection, options, capabilities);
  if (options.auth) await authenticate(connection, capabilities, options.auth);
  return capabilities;
}

/** One MAIL, RCPT…, DATA; a refusal is this transaction's result, a network failure ends the session. */
async function transaction(
  connection: SmtpConnection,
  capabilities: Capabilities,
  envelope: SmtpEnvelope,
  data: Uint8Array,
): Promise<SmtpResult> {
  try {
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
  } catch (error) {
    if (!(error instanceof SmtpFailure) || !error.isReply) throw error;
    await connection.command("rset", "RSET", 250);
    return error.toResult();
  }
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
