import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ReceivedMessage } from "./smtp-test-env";

/**
 * What the fixture servers accepted. Workers tests cannot reach into Node memory, so a loopback
 * HTTP endpoint hands the list over as JSON: `GET ?containing=<text>` only the messages whose raw
 * bytes contain the text, `GET` all of them.
 */
export class Mailbox {
  readonly messages: ReceivedMessage[] = [];
  #server: Server | undefined;
  #held = new Map<string, () => void>();

  /**
   * For a message to a `held-…` recipient the fixtures answer the final dot only once a test
   * releases it (`POST <mailboxUrl>?release=<address>`), so the test can look at the sender while
   * the server still has the message in hand.
   */
  releaseOf(address: string): Promise<void> {
    return new Promise((resolve) => this.#held.set(address, resolve));
  }

  async listen(): Promise<string> {
    const server = createServer((req, res) => {
      const release = new URL(req.url ?? "/", "http://mailbox").searchParams.get("release");
      if (req.method === "POST" && release) {
        const held = this.#held.get(release);
        this.#held.delete(release);
        held?.();
        res.writeHead(held ? 204 : 404).end();
        return;
      }
      // Each test asks for its own messages (a Message-ID, a marker): the whole list grows to
      // megabytes over a run, and serializing and parsing it at every poll cost more CPU than the
      // SMTP sessions behind it.
      const containing = new URL(req.url ?? "/", "http://mailbox").searchParams.get("containing");
      const messages = containing ? this.messages.filter((m) => m.raw.includes(containing)) : this.messages;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(messages));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.#server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
