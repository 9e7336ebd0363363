import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ReceivedMessage } from "./smtp-test-env";

/**
 * What the fixture servers accepted. Workers tests cannot reach into Node memory, so a loopback
 * HTTP endpoint hands the list over as JSON.
 */
export class Mailbox {
  readonly messages: ReceivedMessage[] = [];
  #server: Server | undefined;

  async listen(): Promise<string> {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(this.messages));
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
