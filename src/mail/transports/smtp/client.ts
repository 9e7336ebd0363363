import { authenticate } from "./auth";
import { type Capabilities, ehlo } from "./capabilities";
import { SmtpConnection } from "./connection";
import { checkEnvelope } from "./envelope";
import { asFailure, replyFailure, SmtpFailure } from "./failure";
import { messageData } from "./message-data";
import { openTransaction } from "./open-transaction";
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

/** What a transaction's sender is told and asked (see `SendHooks` in ../transport.ts). */
export interface TransactionHooks {
  /** Called before the final dot; false drops the connection so nothing is delivered. */
  beforeCommit?: () => Promise<boolean>;
  /** Epoch ms no exchange may outlast, read before each one. */
  deadline?: () => number;
}

/** What a message's sender is told and asked, for every transaction of the message. */
export interface MessageHooks extends TransactionHooks {}

export interface MessageOutcome {
  results: SmtpResult[];
  /** `beforeCommit` answered no: nothing more was delivered and the session is gone. */
  withheld: boolean;
}

/** `beforeCommit` answered no: the session was dropped before the dot. */
export const WITHHELD = Symbol("withheld");

/**
 * One SMTP session (greeting, EHLO, STARTTLS, AUTH) that carries several transactions in turn, so
 * a sender keeps few connections open (Workers allow six at once per invocation). A session whose
 * connection failed is `broken` and must not be given another transaction.
 */
export class SmtpSession {
  broken = false;

  private constructor(
    private readonly connection: SmtpConnection,
    private readonly capabilities: Capabilities,
    private readonly heloName: string,
  ) {}

  static async open(options: SmtpOptions): Promise<SmtpSession> {
    const connection = await SmtpConnection.open(options, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      return new SmtpSession(connection, await openSession(connection, options), options.heloName);
    } catch (error) {
      const failure = asFailure("connect", error);
      if (failure.code !== null) await connection.quit();
      await connection.close();
      throw failure;
    }
  }

  /**
   * One transaction: MAIL, RCPT, DATA and the message (`messageData`'s bytes). A refused
   * transaction is cleared with RSET (RFC 5321 §4.1.1.5) and is the result; a failure of the
   * connection is the result too, and breaks the session. Never throws.
   */
  async transact(
    envelope: SmtpEnvelope,
    data: Uint8Array,
    hooks: TransactionHooks = {},
  ): Promise<SmtpResult | typeof WITHHELD> {
    const refused = checkEnvelope(envelope, this.heloName);
    if (refused) return refused.toResult();
    this.connection.deadline = hooks.deadline ?? (() => Number.POSITIVE_INFINITY);
    try {
      const result = await transaction(
        this.connection,
        this.capabilities,
        envelope,
        data,
        hooks.beforeCommit,
      );
      if (result === WITHHELD) {
        this.broken = true;
        await this.connection.close();
      }
      return result;
    } catch (error) {
      const failure = asFailure("connect", error);
      this.broken = true;
      if (failure.code !== null) await this.connection.quit();
      await this.connection.close();
      return failure.toResult();
    } finally {
      this.connection.deadline = () => Number.POSITIVE_INFINITY;
    }
  }

  /**
   * The message once per envelope, in turn (see `transact`); after a failure of the connection,
   * every envelope not yet sent shares it. Never throws.
   */
  async send(envelopes: SmtpEnvelope[], message: string, hooks: MessageHooks = {}): Promise<MessageOutcome> {
    const data = messageData(message);
    const results: SmtpResult[] = [];
    for (const envelope of envelopes) {
      const previous = results.at(-1);
      if (this.broken && previous) {
        results.push(previous);
        continue;
      }
      const result = await this.transact(envelope, data, hooks);
      if (result === WITHHELD) return { results: envelopes.map(() => NOT_SENT), withheld: true };
      results.push(result);
    }
    return { results, withheld: false };
  }

  /** QUIT, then the socket closed, whatever the server says. */
  async end(): Promise<void> {
    if (!this.broken) await this.connection.quit();
    this.broken = true;
    await this.connection.close();
  }
}

/**
 * Submits the same message once per envelope over one SMTP session of its own (see
 * `SmtpSession.send`), then QUIT. Never throws: one result per envelope, in order; a failure of
 * the session (connecting, AUTH, a lost connection) is the result of every envelope not yet sent.
 * The socket is closed whatever happens.
 */
export async function sendTransactions(
  options: SmtpOptions,
  envelopes: SmtpEnvelope[],
  message: string,
): Promise<SmtpResult[]> {
  const checked = envelopes.map((e) => checkEnvelope(e, options.heloName)?.toResult());
  if (checked.every((r) => r !== undefined)) return checked;
  let session: SmtpSession;
  try {
    session = await SmtpSession.open(options);
  } catch (error) {
    const failure = asFailure("connect", error).toResult();
    return checked.map((r) => r ?? failure);
  }
  const { results } = await session.send(envelopes, message);
  await session.end();
  return results;
}

async function openSession(connection: SmtpConnection, options: SmtpOptions): Promise<Capabilities> {
  await connection.reply("greeting", 220);
  let capabilities = await ehlo(connection, options.heloName);
  if (options.security === "starttls") capabilities = await upgrade(connection, options, capabilities);
  if (options.auth) await authenticate(connection, capabilities, options.auth);
  return capabilities;
}

/** The terminating CRLF "." CRLF that ends `messageData`'s bytes. */
const FINAL_DOT = 3;

/**
 * One MAIL, RCPT…, DATA (see `openTransaction`); a refusal is this transaction's result, a network failure ends the
 * session. With `beforeCommit`, the data goes out without its final dot, the sender is asked, and
 * only then the dot: until the dot the server may not deliver (RFC 5321 §4.1.1.4), so a crash or a
 * "no" before it delivers nothing.
 */
async function transaction(
  connection: SmtpConnection,
  capabilities: Capabilities,
  envelope: SmtpEnvelope,
  data: Uint8Array,
  beforeCommit?: () => Promise<boolean>,
): Promise<SmtpResult | typeof WITHHELD> {
  try {
    const rejected = await openTransaction(connection, capabilities, envelope, data);
    let end = data;
    if (beforeCommit) {
      await connection.write("message", data.subarray(0, data.byteLength - FINAL_DOT));
      if (!(await beforeCommit())) return WITHHELD;
      end = data.subarray(data.byteLength - FINAL_DOT);
    }
    const reply = await connection.send("message", end);
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
