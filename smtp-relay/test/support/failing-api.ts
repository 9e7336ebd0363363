/**
 * A failing API on loopback for the failures the real Worker cannot be made to produce on demand:
 * it accepts any key at AUTH, then answers sends with what the test asks (a 500, or a dropped
 * connection as if the API had gone away). Everything else is the real relay over real sockets.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SendBehaviour = "500" | "drop";

export async function startFailingApi(behaviour: SendBehaviour) {
  const logs: unknown[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/v1/emails/raw/credentials") {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({
            object: "relay_credentials",
            account_id: "acc_x",
            key_id: "key_x",
            key_prefix: "sk_x",
          }),
        );
        return;
      }
      if (req.url === "/_relay/smtp-logs") {
        logs.push(...(JSON.parse(Buffer.concat(chunks).toString()) as { logs: unknown[] }).logs);
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end('{"recorded":1}');
        return;
      }
      if (behaviour === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end('{"error":"Internal error","code":"internal_error"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nobody listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
