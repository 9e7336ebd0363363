import { connect } from "cloudflare:sockets";
import { withDeadline } from "./deadline";
import { asFailure, replyFailure } from "./failure";
import { ReplyReader, type SmtpReply } from "./reply-reader";
import type { SmtpOptions, SmtpStage } from "./types";

const secureTransport = { starttls: "starttls", tls: "on", none: "off" } as const;

/**
 * One TCP connection speaking SMTP. Every exchange runs under the per-command deadline, and every
 * error is turned into an SmtpFailure naming the stage it happened in.
 */
export class SmtpConnection {
  #socket: Socket;
  #reader: ReplyReader;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  /**
   * Epoch ms no exchange may outlast (the sender's lease), on top of the per-command deadline; read
   * before each exchange, since the sender's lease moves as it goes.
   */
  deadline: () => number = () => Number.POSITIVE_INFINITY;

  private constructor(
    socket: Socket,
    readonly timeoutMs: number,
  ) {
    this.#socket = socket;
    this.#reader = new ReplyReader(socket.readable);
    this.#writer = socket.writable.getWriter();
    // A refused or reset connection rejects `closed` too; the failure is reported where it is met.
    socket.closed.catch(() => {});
  }

  static async open(options: SmtpOptions, timeoutMs: number): Promise<SmtpConnection> {
    let connection: SmtpConnection;
    try {
      const socket = connect(
        { hostname: options.host, port: options.port },
        { secureTransport: secureTransport[options.security], allowHalfOpen: false },
      );
      connection = new SmtpConnection(socket, timeoutMs);
    } catch (error) {
      throw asFailure("connect", error);
    }
    try {
      await withDeadline(connection.#socket.opened, timeoutMs, "the connection");
      return connection;
    } catch (error) {
      await connection.close();
      throw asFailure("connect", error);
    }
  }

  /** Reads one reply and fails unless its code is one of `expected`. */
  async reply(stage: SmtpStage, ...expected: number[]): Promise<SmtpReply> {
    const reply = await this.next(stage);
    if (!expected.includes(reply.code)) throw replyFailure(stage, reply);
    return reply;
  }

  /** Reads one reply, whatever its code (one of several to pipelined commands). */
  next(stage: SmtpStage): Promise<SmtpReply> {
    return this.#run(stage, "a reply", () => this.#reader.read());
  }

  /** Sends one command line and fails unless the reply's code is one of `expected`. */
  async command(stage: SmtpStage, line: string, ...expected: number[]): Promise<SmtpReply> {
    const reply = await this.exchange(stage, line);
    if (!expected.includes(reply.code)) throw replyFailure(stage, reply);
    return reply;
  }

  /** Sends one command line and returns whatever the server answers. */
  exchange(stage: SmtpStage, line: string): Promise<SmtpReply> {
    return this.send(stage, this.#encoder.encode(`${line}\r\n`));
  }

  /** Writes raw bytes (a command, or the whole DATA payload) and reads the reply. */
  send(stage: SmtpStage, bytes: Uint8Array): Promise<SmtpReply> {
    return this.#run(stage, "a reply", async () => {
      await this.#writer.write(bytes);
      return this.#reader.read();
    });
  }

  /** Writes bytes the server answers nothing to yet: a message's data before its final dot. */
  write(stage: SmtpStage, bytes: Uint8Array): Promise<void> {
    return this.#run(stage, "the write", () => this.#writer.write(bytes));
  }

  /**
   * Upgrades in place after the server's 220 to STARTTLS. workerd checks the certificate against the
   * host name given to `connect()` (it rejects `expectedServerHostname`), so there is none to pass.
   */
  async startTls(): Promise<void> {
    await this.#run("starttls", "the TLS handshake", async () => {
      this.#reader.release();
      this.#writer.releaseLock();
      const secured = this.#socket.startTls();
      secured.closed.catch(() => {});
      this.#socket = secured;
      this.#reader = new ReplyReader(secured.readable);
      this.#writer = secured.writable.getWriter();
      await secured.opened;
    });
  }

  /** Ends the session politely; the reply is not worth waiting long for, nor failing over. */
  async quit(): Promise<void> {
    await this.exchange("message", "QUIT").catch(() => {});
  }

  async close(): Promise<void> {
    await this.#socket.close().catch(() => {});
  }

  async #run<T>(stage: SmtpStage, what: string, work: () => Promise<T>): Promise<T> {
    try {
      const ms = Math.min(this.timeoutMs, this.deadline() - Date.now());
      if (ms <= 0) throw new Error(`the attempt's deadline passed before ${what}`);
      return await withDeadline(work(), ms, what);
    } catch (error) {
      throw asFailure(stage, error);
    }
  }
}
