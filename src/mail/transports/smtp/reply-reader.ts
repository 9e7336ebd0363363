/** One SMTP reply: `250-first` … `250 last`. */
export interface SmtpReply {
  code: number;
  /** The lines as received, codes included. */
  lines: string[];
  /** The lines' text after the code, joined with "\n": what results carry as `response`. */
  text: string;
}

/** Replies are short; a server that streams without line ends must not fill the isolate's memory. */
const MAX_REPLY_CHARS = 64 * 1024;
const REPLY_LINE = /^(\d{3})(?:([ -])(.*))?$/;

/**
 * Reads SMTP replies (RFC 5321 §4.2) from a byte stream. A multi-line reply is `250-…` lines ended
 * by one `250 …` line; a bare `250` is also a last line.
 */
export class ReplyReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";

  constructor(readable: ReadableStream<Uint8Array>) {
    this.#reader = readable.getReader();
  }

  async read(): Promise<SmtpReply> {
    const lines: string[] = [];
    const texts: string[] = [];
    let size = 0;
    for (;;) {
      const line = await this.#nextLine();
      size += line.length;
      if (size > MAX_REPLY_CHARS) throw new Error("reply too long");
      const match = REPLY_LINE.exec(line);
      if (!match) throw new Error(`malformed reply: ${JSON.stringify(line.slice(0, 200))}`);
      lines.push(line);
      texts.push(match[3] ?? "");
      if (match[2] !== "-") return { code: Number(match[1]), lines, text: texts.join("\n") };
    }
  }

  /**
   * Gives the stream back, for STARTTLS. Anything already buffered is dropped with this reader:
   * bytes sent in plaintext before the handshake must never be read as if they came over TLS.
   */
  release(): void {
    this.#buffer = "";
    this.#reader.releaseLock();
  }

  async #nextLine(): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end >= 0) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        return line.endsWith("\r") ? line.slice(0, -1) : line;
      }
      if (this.#buffer.length > MAX_REPLY_CHARS) throw new Error("reply too long");
      const { done, value } = await this.#reader.read();
      if (done) throw new Error("connection closed by the server");
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }
}
